import test from "node:test";
import assert from "node:assert/strict";
import { UserDirectory } from "./index.js";

test("find returns an added user", () => {
  const dir = new UserDirectory();
  dir.add({ id: "u1", email: "a@example.com", teamId: null });
  assert.equal(dir.find("u1")?.email, "a@example.com");
});
