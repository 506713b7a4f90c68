const SEPARATOR = "-";

export function slugify(input, { maxLength = 64 } = {}) {
  const base = input
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9\s-]/g, "")
    .replace(/[\s_-]+/g, SEPARATOR)
    .replace(/^-+|-+$/g, "");
  return base.slice(0, maxLength);
}

export function uniqueSlug(input, taken) {
  const base = slugify(input);
  let candidate = base;
  let n = 2;
  while (taken.has(candidate)) {
    candidate = `${base}-${n}`;
    n += 1;
  }
  return candidate;
}
