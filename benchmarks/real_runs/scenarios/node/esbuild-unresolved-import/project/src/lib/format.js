export function formatPercent(x) {
  return `${(x * 100).toFixed(1)}%`;
}
