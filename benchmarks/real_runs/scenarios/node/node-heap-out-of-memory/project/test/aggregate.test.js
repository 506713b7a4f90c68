import test from "node:test";
import assert from "node:assert/strict";
import { aggregate } from "../scripts/aggregate.js";

test("counts requests and distinct users per day", () => {
  const rows = aggregate([
    { ts: "2024-03-01T01:00:00Z", user: "a", bytes: 10 },
    { ts: "2024-03-01T02:00:00Z", user: "a", bytes: 5 },
    { ts: "2024-03-02T02:00:00Z", user: "b", bytes: 1 },
  ]);
  assert.deepEqual(rows, [
    { day: "2024-03-01", requests: 2, bytes: 15, users: 1 },
    { day: "2024-03-02", requests: 1, bytes: 1, users: 1 },
  ]);
});
