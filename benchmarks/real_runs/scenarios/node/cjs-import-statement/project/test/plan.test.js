const test = require("node:test");
const assert = require("node:assert/strict");
const { plan } = require("../lib/plan");

test("orders pending migrations and skips applied ones", () => {
  const files = ["m/0002_add_index.sql", "m/0001_init.sql", "m/README.md", "m/0003_drop.sql"];
  assert.deepEqual(plan(files, new Set(["0001_init.sql"])), ["m/0002_add_index.sql", "m/0003_drop.sql"]);
});
