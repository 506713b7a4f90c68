import { scaleLinear } from "d3-scale";

export function renderSparkline(values) {
  const y = scaleLinear().domain([Math.min(...values), Math.max(...values)]).range([20, 0]);
  const points = values.map((v, i) => `${i * 4},${y(v).toFixed(1)}`).join(" ");
  return `<svg width="${values.length * 4}" height="20"><polyline points="${points}"/></svg>`;
}
