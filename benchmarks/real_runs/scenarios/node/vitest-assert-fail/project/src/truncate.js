export function truncate(text, width, ellipsis = "…") {
  if (text.length <= width) return text;
  const cut = text.slice(0, Math.max(0, width - ellipsis.length));
  const lastSpace = cut.lastIndexOf(" ");
  return (lastSpace > width / 2 ? cut.slice(0, lastSpace) : cut) + ellipsis;
}
