import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordSchemas } from "../schemas";
import { checkSharedFolder } from "@/test/shared-folder";
import { mergeFacts } from "./merge";
import { normalizeBundle, NORMALIZERS } from "./resources";
import { summarizeNormalization } from "./summary";
import type { SourceInfo } from "./types";

// Third-party Synthea-derived bundles (see SOURCES.md there); they live outside the repo. Without them CI fails
// this suite and a plain clone skips it, saying so.
const { absolutePath: SAMPLES_DIR, verdict: samples } = checkSharedFolder("../shared/fhir-samples");
if (samples.action === "skip") console.warn(samples.message);

const sampleFiles = samples.action === "run" ? fs.readdirSync(SAMPLES_DIR).filter((name) => name.endsWith(".json")).sort() : [];

// Written out rather than imported, so that dropping a type from the normalizer table fails this suite. Counts are
// of one normalization, before mergeFacts (which only folds facts of different sources together).
const MAPPED_TYPES = new Set([
  "Patient", "Condition", "MedicationRequest", "MedicationStatement", "MedicationDispense", "AllergyIntolerance", "Immunization",
  "Observation", "Procedure", "DocumentReference", "DiagnosticReport", "Claim", "ExplanationOfBenefit", "Coverage", "Encounter",
]);

// Skips the sample bundles are known to cause; anything else means a resource the normalizer should have read.
const EXPECTED_SKIP_REASONS = [
  /^observation category .+ is not one of the ten categories$/,
  /^\w+ is entered-in-error$/,
  /^DiagnosticReport has no presented form; its results name it as their report$/,
  /^DiagnosticReport presents the same note as a DocumentReference, which is served instead$/,
  /^Encounter is not a record: the records that reference it carry its date, type and location$/,
];

const PRIMARY: SourceInfo = { sourceId: "src_primary", sourceName: "Primary" };
const SECONDARY: SourceInfo = { sourceId: "src_secondary", sourceName: "Secondary" };
const SCOPE = "u_samplesubject";

type Json = { [key: string]: unknown };
type Bundle = { entry: { resource: Json; fullUrl?: string }[] };

function loadSample(name: string): Bundle {
  return JSON.parse(fs.readFileSync(path.join(SAMPLES_DIR, name), "utf8")) as Bundle;
}

function tally(items: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** The same bundle as another source would send it: every resource under a new id, references rewritten to match. */
function reissuedWithNewIds(bundle: Bundle): Bundle {
  const renamed = new Set(bundle.entry.map(({ resource }) => `${String(resource.resourceType)}/${String(resource.id)}`));
  const rewrite = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => rewrite(item));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, rewrite(inner, field)]));
    }
    if (key === "reference" && typeof value === "string") {
      const tail = /([A-Z][A-Za-z]+\/[^/]+)$/.exec(value)?.[1];
      return tail && renamed.has(tail) ? value.replace(/\/([^/]+)$/, "/copy-$1") : value;
    }
    return value;
  };
  return {
    ...bundle,
    entry: bundle.entry.map((entry) => {
      const resource = rewrite(entry.resource) as Json;
      return { ...entry, resource: { ...resource, id: `copy-${String(resource.id)}` } };
    }),
  };
}

describe.skipIf(samples.action === "skip")("normalizing the FHIR sample bundles", () => {
  it("finds sample bundles", () => {
    if (samples.action === "fail") throw new Error(samples.message);
    expect(sampleFiles.length).toBeGreaterThan(0);
  });

  it("checks the types the normalizer reads, no more and no fewer", () => {
    expect([...MAPPED_TYPES].sort()).toEqual(Object.keys(NORMALIZERS).sort());
  });

  describe.each(sampleFiles)("%s", (name) => {
    const bundle = loadSample(name);
    const result = normalizeBundle(bundle, PRIMARY, SCOPE);

    it("turns every resource of a mapped type into exactly one record or one skipped entry", () => {
      const mapped = bundle.entry
        .map(({ resource }) => resource)
        .filter((resource) => MAPPED_TYPES.has(String(resource.resourceType)))
        .map((resource) => `${String(resource.resourceType)}/${String(resource.id)}`);
      const accounted = [
        ...result.facts.flatMap((fact) => fact.record.sources.map((source) => `${source.resourceType}/${source.resourceId}`)),
        ...result.skipped.map((skipped) => `${skipped.resourceType}/${skipped.resourceId}`),
      ];
      expect(result.facts.every((fact) => fact.record.sources.length === 1)).toBe(true);
      expect(tally(accounted)).toEqual(tally(mapped));
      expect(result.facts.length).toBeGreaterThan(0);
    });

    it("counts as many records and skips in its summary as the bundle has resources of mapped types", () => {
      const mapped = bundle.entry.filter(({ resource }) => MAPPED_TYPES.has(String(resource.resourceType))).length;
      const summary = summarizeNormalization(result);
      const counted = [...Object.values(summary.records), ...Object.values(summary.skipped)].reduce((sum, count) => sum + count, 0);
      expect(counted).toBe(mapped);
    });

    it("skips only for expected reasons, never because a record came out invalid", () => {
      for (const { reason } of result.skipped) {
        expect(EXPECTED_SKIP_REASONS.some((expected) => expected.test(reason)), reason).toBe(true);
      }
    });

    it("produces records that pass their schema, with unique keys and no SSN or inline document content", () => {
      for (const fact of result.facts) {
        expect(fact.record.category).toBe(fact.category);
        const parsed = recordSchemas[fact.category].safeParse(fact.record);
        expect(parsed.success, `${fact.category} ${fact.factKey}: ${parsed.error?.message}`).toBe(true);
      }
      const keys = result.facts.map((fact) => `${fact.category} ${fact.factKey}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(result.facts.map((fact) => fact.record.recordId)).size).toBe(keys.length);

      const serialized = JSON.stringify(result.facts);
      const patient = bundle.entry.find(({ resource }) => resource.resourceType === "Patient")?.resource;
      const ssns = ((patient?.identifier ?? []) as Json[])
        .filter((identifier) => identifier.system === "http://hl7.org/fhir/sid/us-ssn")
        .map((identifier) => String(identifier.value));
      for (const ssn of ssns) expect(serialized).not.toContain(ssn);
      expect(serialized).not.toMatch(/"data":/);
    });

    it("gives stable record ids across runs, and different ones under another scope", () => {
      const again = normalizeBundle(bundle, PRIMARY, SCOPE);
      expect(again.facts.map((fact) => fact.record.recordId)).toEqual(result.facts.map((fact) => fact.record.recordId));
      const otherScope = normalizeBundle(bundle, PRIMARY, "u_othersubject");
      const otherIds = new Set(otherScope.facts.map((fact) => fact.record.recordId));
      expect(otherScope.facts.map((fact) => fact.factKey)).toEqual(expect.arrayContaining(result.facts.map((fact) => fact.factKey)));
      expect(result.facts.some((fact) => otherIds.has(fact.record.recordId))).toBe(false);
    });

    it("merges each fact sent again by a second source under other resource ids into one record listing both", () => {
      const copy = normalizeBundle(reissuedWithNewIds(bundle), SECONDARY, SCOPE);
      const merged = mergeFacts([result.facts, copy.facts]);
      // Identical resources within one source are told apart by their resource ids, so only those cannot merge.
      const keyedByResourceId = result.facts.filter((fact) => fact.factKey.includes("|resource:")).length;
      expect(merged).toHaveLength(result.facts.length + keyedByResourceId);
      const mergedPairs = merged.filter((fact) => fact.record.sources.length === 2);
      expect(mergedPairs).toHaveLength(result.facts.length - keyedByResourceId);
      for (const fact of mergedPairs) {
        const [first, second] = fact.record.sources;
        expect(first?.sourceId).toBe(PRIMARY.sourceId);
        expect(second?.sourceId).toBe(SECONDARY.sourceId);
        expect(second?.resourceId).toBe(`copy-${first?.resourceId}`);
      }
    });
  });
});
