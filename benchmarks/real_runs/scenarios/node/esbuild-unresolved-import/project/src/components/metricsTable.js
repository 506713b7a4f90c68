export function renderTable(metrics, fmt) {
  const rows = metrics.map((m) => `<tr><td>${m.name}</td><td>${fmt(m.value)}</td></tr>`);
  return `<table class="metrics">${rows.join("")}</table>`;
}
