import { readFileSync } from "node:fs";
import type { Bundle, FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { scopeAllowsResource } from "@/lib/ehr";
import { CATEGORIES, normalizeResources, type Category, type NormalizedFact } from "@/lib/records";
import { SCENARIOS, sourceResources } from "@/lib/sandbox";
import { scopeForCategories } from "./smart-scopes";

// Whether SMART v2 scopes narrowed to the shared categories still let an import read every record of them: each
// fixture's resources are filtered as a server enforcing the scopes does (the synthetic systems' rule), normalized,
// and the shared categories' records compared with those of the whole record (the same records) and with those the
// v1 scopes of the same categories read (the same records, fact for fact: a record of one category may carry what
// another category's resource says, such as a prescription's reason from a Condition, only when both are shared).

const FIDELITY = ["us-core-examples", "synthea-notes"].map((name) => {
  const bundle = JSON.parse(readFileSync(`fixtures/fidelity/${name}.json`, "utf8")) as Bundle;
  return { name, resources: (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : [])) };
});

const RECORDS = [
  ...SCENARIOS.filter((scenario) => scenario.kind !== "session" && scenario.id !== "long-history").flatMap((scenario) =>
    scenario.sources.map((source) => ({ name: `${scenario.id}.${source.key}`, resources: sourceResources(scenario.id, source.key, 0) })),
  ),
  ...FIDELITY,
];

const SOURCE = { sourceId: "src_granular", sourceName: "Granular" };

/** `keysOnly`: the records' keys, of those read from the category's own resources (not from a shared C-CDA document). */
function factsOf(resources: readonly FhirResource[], categories: readonly Category[], keysOnly = false): string[] {
  const facts: NormalizedFact[] = normalizeResources([...resources], SOURCE, "u_granular").facts;
  const fromDocument = (fact: NormalizedFact) => (fact.record.sources as { document?: unknown }[]).some((source) => source.document !== undefined);
  return facts
    .filter((fact) => categories.includes(fact.category) && !(keysOnly && fromDocument(fact)))
    .map((fact) => (keysOnly ? `${fact.category} ${fact.factKey}` : JSON.stringify(fact)))
    .sort();
}

function granted(resources: readonly FhirResource[], categories: readonly Category[], syntax: "v1" | "v2" = "v2"): FhirResource[] {
  const scope = scopeForCategories(categories, syntax);
  return resources.filter((resource) => scopeAllowsResource(scope, resource as { resourceType: string; category?: unknown }, "search") || scopeAllowsResource(scope, resource as { resourceType: string; category?: unknown }, "read"));
}

describe("granular scopes against the fixtures", () => {
  const shares: Category[][] = [...CATEGORIES.map((category) => [category]), ["labs", "vitals"], ["medications", "labs"], ["labs", "documents"]];
  it.each(RECORDS.map((record) => [record.name, record] as const))("%s: every record of each shared category is read", (_, record) => {
    for (const categories of shares) {
      const narrowed = granted(record.resources, categories);
      const label = `${record.name}: ${categories.join(", ")}`;
      expect(factsOf(narrowed, categories, true), label).toEqual(factsOf(record.resources, categories, true));
      expect(factsOf(narrowed, categories), label).toEqual(factsOf(granted(record.resources, categories, "v1"), categories));
    }
  });

  it("and the narrowing is real: sharing labs leaves the vital signs unread", () => {
    const baseline = RECORDS.find((record) => record.name === "baseline-adult.primary")!;
    const labs = granted(baseline.resources, ["labs"]);
    expect(factsOf(labs, ["vitals"])).toEqual([]);
    expect(factsOf(baseline.resources, ["vitals"]).length).toBeGreaterThan(0);
    expect(labs.some((resource) => resource.resourceType === "MedicationRequest")).toBe(false);
  });
});
