import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { searchsetBundle } from "./searchset";

const observations: FhirResource[] = Array.from({ length: 5 }, (_, index) => ({
  resourceType: "Observation",
  id: `o${index + 1}`,
  status: "final",
  code: { text: "x" },
}));
const base = "https://ehr.example/fhir";

describe("searchset Bundles", () => {
  it("without _count, every match is on one page and there is no next link", () => {
    const bundle = searchsetBundle({ self: new URL(`${base}/Observation?patient=p1`), baseUrl: base, matches: observations });
    expect(bundle.total).toBe(5);
    expect(bundle.entry).toHaveLength(5);
    expect(bundle.link).toEqual([{ relation: "self", url: `${base}/Observation?patient=p1` }]);
    expect(bundle.entry?.[0]).toMatchObject({ fullUrl: `${base}/Observation/o1`, search: { mode: "match" } });
  });

  it("with _count, pages follow next links until the last page, which has none", () => {
    const self = new URL(`${base}/Observation?patient=p1`);
    const seen: string[] = [];
    let offset = 0;
    for (let pages = 0; pages < 10; pages += 1) {
      const bundle = searchsetBundle({ self, baseUrl: base, matches: observations, count: 2, offset });
      expect(bundle.total).toBe(5);
      seen.push(...(bundle.entry ?? []).map((entry) => entry.resource?.id ?? ""));
      const next = bundle.link?.find((link) => link.relation === "next")?.url;
      if (!next) break;
      const nextUrl = new URL(next);
      expect(nextUrl.searchParams.get("patient")).toBe("p1");
      expect(nextUrl.searchParams.get("_count")).toBe("2");
      offset = Number(nextUrl.searchParams.get("_offset"));
    }
    expect(seen).toEqual(["o1", "o2", "o3", "o4", "o5"]);
  });
});
