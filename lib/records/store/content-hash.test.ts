import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCENARIOS, scenarioBundle } from "@/lib/sandbox";
import { normalizeBundle } from "../normalize";
import { canonicalJson, contentHash } from "./content-hash";

/** The serialization every stored hash was made with: JSON.stringify rebuilding each object with sorted keys. */
function replacerJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

describe("canonicalJson", () => {
  it("writes every scenario's normalized records byte for byte as the stored hashes were made", () => {
    let compared = 0;
    // long-history's records are baseline-adult's, repeated.
    for (const scenario of SCENARIOS.filter((candidate) => candidate.bundleId && candidate.id !== "long-history")) {
      const { facts } = normalizeBundle(scenarioBundle(scenario.id), { sourceId: "src_a", sourceName: "Alpha" }, "u_probe");
      for (const fact of facts) {
        expect(canonicalJson(fact.record)).toBe(replacerJson(fact.record));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("matches on the edges: index-like keys, undefined, toJSON, nested arrays, unicode keys and escapes", () => {
    const value = {
      b: [1, undefined, { z: 1, a: [null, "x\"y\\"] }],
      a: undefined,
      "10": "ten",
      "9": "nine",
      "01": "not an index",
      é: 1,
      E: 2,
      when: new Date("2020-01-02T03:04:05.000Z"),
      nested: { "2": { y: true, x: false }, "-1": 0, fn: () => 1 },
      big: 1e21,
      nan: Number.NaN,
    };
    expect(canonicalJson(value)).toBe(replacerJson(value));
    expect(canonicalJson([{ b: 1, a: 2 }])).toBe('[{"a":2,"b":1}]');
    expect(canonicalJson("text")).toBe('"text"');
  });

  it("matches the replacer on any JSON, with keys in any order, index-like keys and __proto__ among them", () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("0", "1", "2", "10", "01", "4294967294", "4294967295", "-1", "__proto__", "a", "B", "é"));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, fc.jsonValue({ maxDepth: 1 }), tie("object"), tie("array")),
      array: fc.array(tie("value"), { maxLength: 4 }),
      object: fc.array(fc.tuple(key, tie("value")), { maxLength: 6 }).map((entries) => {
        const object: Record<string, unknown> = {};
        for (const [name, inner] of entries) Object.defineProperty(object, name, { value: inner, enumerable: true, writable: true, configurable: true });
        return object;
      }),
    }));
    fc.assert(
      fc.property(json.value, (value) => {
        const before = JSON.stringify(value);
        expect(canonicalJson(value)).toBe(replacerJson(value));
        // The value is read, never rearranged.
        expect(JSON.stringify(value)).toBe(before);
      }),
      { numRuns: 2000 },
    );
  });

  it("returns records whose keys are already in order as JSON.stringify writes them", () => {
    const record = { a: 1, b: { c: [{ d: 1, e: "x" }], f: null }, g: "z" };
    expect(canonicalJson(record)).toBe(JSON.stringify(record));
  });

  it("hashes equal content alike whatever its key order", () => {
    expect(contentHash({ a: 1, b: { c: 2, d: 3 } })).toBe(contentHash({ b: { d: 3, c: 2 }, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
  });
});
