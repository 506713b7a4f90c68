import { describe, expect, it } from "vitest";
import { deliver, DeliveryError, parseSignature } from "../src/deliver.js";

const responses = (...codes) => {
  let i = 0;
  return async () => {
    const code = codes[i++];
    if (code === "reset") throw new Error("socket hang up (ECONNRESET)");
    return { status: code };
  };
};

describe("deliver", () => {
  it("returns the first non-5xx response", async () => {
    await expect(deliver(responses(202), {})).resolves.toEqual({ status: 202 });
  });

  it("retries on 503 and on connection resets", async () => {
    await expect(deliver(responses(503, "reset", 200), {})).resolves.toEqual({ status: 200 });
  });

  it("gives up after the retry budget", async () => {
    const err = await deliver(responses(500, 502, 504), {}).catch((e) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect(err).toMatchObject({ status: 504, attempts: 3 });
  });

  it("does not retry 4xx", async () => {
    await expect(deliver(responses(404, 200), {})).resolves.toEqual({ status: 404 });
  });
});

describe("parseSignature", () => {
  it("extracts the digest", () => {
    expect(parseSignature(`sha256=${"a".repeat(64)}`)).toBe("a".repeat(64));
  });

  it.each([undefined, "", "sha1=abc", "sha256=xyz"])("throws on %j", (header) => {
    expect(() => parseSignature(header)).toThrow(TypeError);
  });
});
