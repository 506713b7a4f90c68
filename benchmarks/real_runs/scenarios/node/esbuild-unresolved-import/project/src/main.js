import { fetchMetrics } from "./lib/api.js";
import { formatPercent } from "./lib/format.js";
import { renderSparkline } from "./components/Sparkline.js";
import { renderTable } from "./components/MetricsTable.js";

export async function mount(el, endpoint) {
  const metrics = await fetchMetrics(endpoint);
  el.innerHTML = renderTable(metrics, formatPercent) + renderSparkline(metrics.map((m) => m.value));
}

window.DashboardWidget = { mount };
