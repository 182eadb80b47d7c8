import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Bytes, sha256Hex } from "./sha256";

describe("sha256", () => {
  it("is what a Hash object gives, for any text (non-ASCII included)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
        expect(sha256Bytes(text).equals(createHash("sha256").update(text).digest())).toBe(true);
      }),
    );
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
