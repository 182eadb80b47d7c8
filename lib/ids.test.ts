import { describe, expect, it } from "vitest";
import { newId, stableId } from "./ids";

describe("ids", () => {
  it("newId is the prefix plus 24 base62 characters and does not repeat", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newId("rec_")));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^rec_[0-9A-Za-z]{24}$/);
  });

  it("stableId is deterministic and sensitive to every part and their boundaries", () => {
    expect(stableId("rec_", "a", "b")).toBe(stableId("rec_", "a", "b"));
    expect(stableId("rec_", "a", "b")).not.toBe(stableId("rec_", "ab", ""));
    expect(stableId("rec_", "a", "b")).toMatch(/^rec_[0-9A-Za-z]{24}$/);
  });

  it("stableId gives the ids records are stored under (a change would duplicate every stored record on its next import)", () => {
    expect(stableId("rec_", "u_scope", "labs", "loinc:2339-0|2020-01-01T10:00:00.000Z|97 mg/dL")).toBe("rec_eV7cetUGrTqys545lwQ8uz6T");
  });
});
