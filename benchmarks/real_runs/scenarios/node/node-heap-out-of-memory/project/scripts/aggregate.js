export function aggregate(events) {
  const byDay = new Map();
  for (const e of events) {
    const day = e.ts.slice(0, 10);
    const row = byDay.get(day) ?? { day, requests: 0, bytes: 0, users: new Set() };
    row.requests += 1;
    row.bytes += e.bytes;
    row.users.add(e.user);
    byDay.set(day, row);
  }
  return [...byDay.values()].map((r) => ({ ...r, users: r.users.size }));
}
