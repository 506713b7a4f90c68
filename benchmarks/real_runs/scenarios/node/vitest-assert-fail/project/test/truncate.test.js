import { describe, expect, it } from "vitest";
import { truncate } from "../src/truncate.js";

describe("truncate", () => {
  it("keeps short text", () => {
    expect(truncate("short", 10)).toBe("short");
  });

  it("cuts on a word boundary", () => {
    expect(truncate("the quick brown fox jumps", 15)).toBe("the quick…");
  });

  it("cuts mid-word when no space is near", () => {
    expect(truncate("supercalifragilistic", 8)).toBe("superca…");
  });
});
