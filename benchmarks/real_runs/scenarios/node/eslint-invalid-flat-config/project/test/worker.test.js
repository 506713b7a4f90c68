"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { Worker } = require("../lib/worker");

test("drains every job", async () => {
  const w = new Worker([1, 2, 3, 4, 5], async (n) => n * 2);
  assert.deepEqual(await w.drain(), [2, 4, 6, 8, 10]);
});
