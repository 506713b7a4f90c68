import { describe, expect, it } from "vitest";
import { slugify, uniqueSlug } from "../src/slugify.js";

describe("slugify", () => {
  it("lowercases and joins words", () => {
    expect(slugify("Hello World")).toBe("hello-world");
  });

  it("collapses runs of separators", () => {
    expect(slugify("a  --  b   c")).toBe("a-b-c");
  });

  it("trims leading and trailing dashes", () => {
    expect(slugify("--draft--")).toBe("draft");
  });

  it("transliterates accented letters", () => {
    expect(slugify("Crème Brûlée")).toBe("creme-brulee");
  });

  it("respects maxLength", () => {
    expect(slugify("a".repeat(100), { maxLength: 10 })).toHaveLength(10);
  });
});

describe("uniqueSlug", () => {
  it("returns the base slug when free", () => {
    expect(uniqueSlug("Release Notes", new Set())).toBe("release-notes");
  });

  it("appends a counter when taken", () => {
    const taken = new Set(["release-notes", "release-notes-2"]);
    expect(uniqueSlug("Release Notes", taken)).toBe("release-notes-3");
  });
});
