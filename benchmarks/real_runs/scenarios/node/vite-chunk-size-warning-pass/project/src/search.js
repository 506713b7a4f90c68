export function search(places, query, limit = 20) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return places
    .filter(([name]) => name.includes(q))
    .sort((a, b) => b[3] - a[3])
    .slice(0, limit);
}
