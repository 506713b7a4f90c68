export async function fetchMetrics(endpoint) {
  const res = await fetch(endpoint, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`metrics request failed: ${res.status}`);
  return res.json();
}
