import test from "node:test";
import assert from "node:assert/strict";
import { search } from "./search.js";

const places = [["kalo", 0, 0, 10], ["merkalo", 1, 1, 500], ["vin", 2, 2, 99]];

test("empty query returns nothing", () => {
  assert.deepEqual(search(places, "  "), []);
});

test("ranks by population", () => {
  assert.deepEqual(search(places, "kalo").map((p) => p[0]), ["merkalo", "kalo"]);
});
