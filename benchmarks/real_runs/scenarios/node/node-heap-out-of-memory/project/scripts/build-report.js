import { aggregate } from "./aggregate.js";

// Synthesises the month of access-log events the nightly job reads (kept in memory at once).
function loadEvents(days, perDay) {
  const events = [];
  for (let d = 1; d <= days; d++) {
    for (let i = 0; i < perDay; i++) {
      events.push({
        ts: `2024-03-${String(d).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:00:00Z`,
        user: `user-${i % 5000}`,
        path: `/api/v2/items/${i}?expand=owner,tags,history`,
        bytes: 512 + (i % 4096),
      });
    }
    console.log(`loaded day ${d}: ${events.length} events so far`);
  }
  return events;
}

const events = loadEvents(31, 15000);
const rows = aggregate(events);
console.table(rows);
