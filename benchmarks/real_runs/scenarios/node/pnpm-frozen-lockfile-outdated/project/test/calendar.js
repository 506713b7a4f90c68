import { test } from "uvu";
import * as assert from "uvu/assert";
import { nextRelease } from "../src/calendar.js";

test("next Tuesday", () => {
  assert.is(nextRelease("2024-05-01"), "2024-05-07");
});

test.run();
