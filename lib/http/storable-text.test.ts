import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { assertStorable, assertStorableHeader, findUnstorableText, unstorableCharacter } from "./storable-text";

/** What PostgreSQL would keep of `text`: pg encodes a string as UTF-8 (a lone surrogate becomes U+FFFD), and NUL is refused. */
function postgresKeeps(text: string): boolean {
  return !text.includes("\0") && Buffer.from(text, "utf8").toString("utf8") === text;
}

const BAD = ["\u0000", "\ud800", "\udbff", "\udc00", "\udfff"];
const badCharacter = fc.oneof(fc.constantFrom(...BAD), fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)));
/** Text of every kind: any UTF-16 units (lone surrogates included), whole code points, and the usual. */
const anyText = fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }));
/** `text` with `bad` put at some place in it, not next to a surrogate it could pair with. */
const withBad = fc.tuple(fc.string({ unit: "grapheme-ascii" }), fc.string({ unit: "grapheme-ascii" }), badCharacter).map(([before, after, bad]) => before + bad + after);

function thrown(run: () => void): ApiError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** The value at `path` in `value`. */
function at(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((inner, key) => (inner as Record<string | number, unknown>)[key], value);
}

describe("unstorableCharacter", () => {
  it("names NUL and each lone surrogate half, as U+XXXX", () => {
    expect(BAD.map(unstorableCharacter)).toEqual(["U+0000", "U+D800", "U+DBFF", "U+DC00", "U+DFFF"]);
    expect(unstorableCharacter("a\u0000b")).toBe("U+0000");
    expect(unstorableCharacter("x\udc00\ud800")).toBe("U+DC00");
  });

  it("lets through surrogate pairs, other control characters and noncharacters, which PostgreSQL stores", () => {
    for (const text of ["", "plain", "😀", "\ud83d\ude00x", "\u0001\u001f\u007f", "\ufffe\uffff", "\ufffd", "é漢字"]) expect(unstorableCharacter(text)).toBeNull();
  });

  it("refuses exactly the text PostgreSQL would not keep as sent", () => {
    fc.assert(fc.property(anyText, (text) => (unstorableCharacter(text) === null) === postgresKeeps(text)), { numRuns: 2000 });
  });

  it("finds a bad character wherever it is put", () => {
    fc.assert(fc.property(withBad, (text) => unstorableCharacter(text) !== null));
  });
});

describe("findUnstorableText", () => {
  it("finds nothing in JSON whose every string and field name PostgreSQL keeps", () => {
    const storable = fc.string().filter(postgresKeeps);
    const json = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        storable,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(storable, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(fc.property(json, (value) => findUnstorableText(value) === null));
  });

  it("points at the string holding the character, however deep, in any JSON value", () => {
    // A JSON value with one string replaced by text holding a bad character; the finding names that string's path.
    const json = fc.jsonValue({ maxDepth: 4 }).filter((value) => findUnstorableText(value) === null);
    fc.assert(
      fc.property(json, withBad, fc.nat(), (value, bad, pick) => {
        const paths: (string | number)[][] = [];
        const collect = (inner: unknown, path: (string | number)[]) => {
          if (typeof inner === "string") paths.push(path);
          else if (Array.isArray(inner)) inner.forEach((item, index) => collect(item, [...path, index]));
          else if (inner !== null && typeof inner === "object") for (const [key, item] of Object.entries(inner)) collect(item, [...path, key]);
        };
        collect(value, []);
        if (paths.length === 0) return;
        const target = paths[pick % paths.length]!;
        const broken = target.length === 0 ? bad : (structuredClone(value) as Record<string | number, unknown>);
        if (target.length > 0) (at(broken, target.slice(0, -1)) as Record<string | number, unknown>)[target.at(-1)!] = bad;
        const found = findUnstorableText(broken);
        expect(found?.inName).toBe(false);
        expect(found?.path).toEqual(target);
        expect(typeof at(broken, found!.path) === "string" && unstorableCharacter(at(broken, found!.path) as string)).toBe(found!.character);
      }),
    );
  });

  it("checks field names, and walks only arrays and plain objects", () => {
    expect(findUnstorableText({ a: { "b\u0000": 1 } })).toEqual({ path: ["a"], character: "U+0000", inName: true });
    expect(findUnstorableText({ a: [1, "ok", { c: "\ud800" }] })).toEqual({ path: ["a", 2, "c"], character: "U+D800", inName: false });
    expect(findUnstorableText(Object.assign(Object.create(null) as object, { x: "\u0000" }))).toEqual({ path: ["x"], character: "U+0000", inName: false });
    expect(findUnstorableText({ when: new Date(0), url: new URL("http://x/%00") })).toBeNull();
    expect(findUnstorableText(undefined)).toBeNull();
  });
});

describe("assertStorable", () => {
  it("refuses a body with 400 invalid_request naming the field", () => {
    const error = thrown(() => assertStorable({ externalUserId: "a\u0000b" }, "body"));
    expect([error?.status, error?.code, error?.message]).toEqual([400, "invalid_request", "externalUserId contains a character that cannot be stored (U+0000)."]);
    expect(thrown(() => assertStorable({ categories: ["labs", "\udfff"] }, "body"))?.message).toBe("categories.1 contains a character that cannot be stored (U+DFFF).");
    expect(thrown(() => assertStorable({ metadata: { "k\u0000": "v" } }, "body"))?.message).toBe("A field name in metadata contains a character that cannot be stored (U+0000).");
    expect(thrown(() => assertStorable({ "\u0000": 1 }, "body"))?.message).toBe("A field name contains a character that cannot be stored (U+0000).");
  });

  it("refuses a query with 400 invalid_request naming the parameter", () => {
    const error = thrown(() => assertStorable({ cursor: "\u0000" }, "query"));
    expect([error?.code, error?.message]).toEqual(["invalid_request", "The query parameter cursor contains a character that cannot be stored (U+0000)."]);
  });

  it("answers a path value with 404 not_found: it names nothing that could exist", () => {
    const error = thrown(() => assertStorable({ token: "abc\u0000" }, "path"));
    expect([error?.status, error?.code]).toEqual([404, "not_found"]);
    expect(error?.message).toBe("No resource at this path: the path parameter token contains a character that cannot be stored (U+0000).");
  });

  it("lets storable values and absent parts through", () => {
    fc.assert(fc.property(fc.jsonValue().filter((value) => findUnstorableText(value) === null), fc.constantFrom("body", "query", "path") as fc.Arbitrary<"body" | "query" | "path">, (value, where) => {
      expect(thrown(() => assertStorable(value, where))).toBeNull();
    }));
    expect(thrown(() => assertStorable(undefined, "body"))).toBeNull();
  });

  it("refuses a kept header holding such a character", () => {
    expect(thrown(() => assertStorableHeader("Idempotency-Key", "k\u0000"))?.message).toBe("Idempotency-Key contains a character that cannot be stored (U+0000).");
    expect(thrown(() => assertStorableHeader("Idempotency-Key", "k-ÿ"))).toBeNull();
  });
});
