import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSharedFolder } from "@/test/shared-folder";
import { CATEGORIES } from "../categories";
import { canonicalJson } from "../store/content-hash";
import { inReadOrder } from "../store/read-order";
import { recordSortAt } from "../store/sort-time";
import { bundleEntries, type UncheckedEntry } from "./bundle-entries";
import { PagedNormalization } from "./paged-normalization";
import { memorySpool } from "./record-spool";
import { normalizeBundle } from "./resources";
import { summarizeNormalization } from "./summary";
import type { NormalizationResult, SourceInfo } from "./types";

// The paged normalization an import runs must give what the whole-source normalizeResources gives, for any way
// the source's resources fall into pages: the fixtures' scenario and fidelity Bundles, C-CDA documents inline and
// linked, and the third-party sample bundles beside the checkout (required: this suite fails without them).
const SOURCE: SourceInfo = { sourceId: "src_paged", sourceName: "Paged Health" };
const SCOPE = "u_pagedsubject";
const FIXTURES = path.resolve(__dirname, "../../../fixtures");
// Beside the checkout: CI fails without them, a plain clone skips that case and says so.
const { absolutePath: SAMPLES, verdict: samples } = checkSharedFolder("../shared/fhir-samples");
if (samples.action === "skip") console.warn(samples.message);

type Bundle = { resourceType: string; entry?: { resource?: unknown; fullUrl?: string }[] };

function fixtureBundles(): [string, Bundle][] {
  const bundles: [string, Bundle][] = [];
  for (const folder of ["bundles", "fidelity"]) {
    for (const name of fs.readdirSync(path.join(FIXTURES, folder)).filter((file) => file.endsWith(".json")).sort()) {
      bundles.push([`fixtures/${folder}/${name}`, JSON.parse(fs.readFileSync(path.join(FIXTURES, folder, name), "utf8")) as Bundle]);
    }
  }
  return bundles;
}

function sampleBundles(): [string, Bundle][] {
  if (samples.action === "fail") throw new Error(samples.message);
  return fs
    .readdirSync(SAMPLES)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((name) => [`fhir-samples/${name}`, JSON.parse(fs.readFileSync(path.join(SAMPLES, name), "utf8")) as Bundle]);
}

/** A C-CDA document sent inline by one DocumentReference and by URL (a Binary of the batch) by another, beside FHIR facts it repeats. */
function ccdaBundle(): Bundle {
  const xml = fs.readFileSync(path.join(FIXTURES, "ccda", "CCD_1.xml"));
  const data = xml.toString("base64");
  const documentReference = (id: string, attachment: object) => ({
    resourceType: "DocumentReference",
    id,
    status: "current",
    type: { coding: [{ system: "http://loinc.org", code: "34133-9" }] },
    date: "2024-01-01T00:00:00Z",
    content: [{ attachment: { contentType: "application/xml", ...attachment } }],
  });
  const fromScenario = (JSON.parse(fs.readFileSync(path.join(FIXTURES, "bundles", "baseline-adult.json"), "utf8")) as Bundle).entry ?? [];
  return {
    resourceType: "Bundle",
    entry: [
      { resource: documentReference("inline", { data }) },
      ...fromScenario,
      { resource: documentReference("linked", { url: "Binary/ccd" }) },
      { resource: { resourceType: "Binary", id: "ccd", contentType: "application/xml", data } },
      { resource: { resourceType: "Binary", id: "unnamed", contentType: "text/xml", data } },
      { resource: { resourceType: "Binary", id: "broken", contentType: "application/xml", data: Buffer.from("<ClinicalDocument>").toString("base64") } },
    ],
  };
}

function pagesOf(entries: UncheckedEntry[], sizes: readonly number[]): UncheckedEntry[][] {
  const pages: UncheckedEntry[][] = [];
  let at = 0;
  for (let index = 0; at < entries.length; index++) {
    const size = Math.max(1, sizes[index % sizes.length]!);
    pages.push(entries.slice(at, at + size));
    at += size;
  }
  return pages;
}

/** The paged normalization of the pages, each pass reading its own copy (as an import reads them back from its spill). */
function paged(pages: UncheckedEntry[][]) {
  const copy = () => JSON.parse(JSON.stringify(pages)) as UncheckedEntry[][];
  const normalization = new PagedNormalization(SOURCE, SCOPE, memorySpool());
  for (const page of copy()) normalization.indexPage(page);
  for (const page of copy()) normalization.normalizePage(page);
  const { skipped, context } = normalization.finish();
  const summary = summarizeNormalization({ facts: normalization.factSummaries(), skipped, context });
  return { skipped, context, summary, facts: [...normalization.facts()] };
}

function expectSame(expected: NormalizationResult, actual: ReturnType<typeof paged>): void {
  expect(actual.skipped).toEqual(expected.skipped);
  expect(actual.context).toEqual(expected.context);
  expect(actual.summary).toEqual(summarizeNormalization(expected));
  // In read order, as the store writes new records in the order it is given them.
  expect(actual.facts.map((fact) => fact.recordId)).toEqual(inReadOrder(expected.facts).map((fact) => fact.record.recordId));
  const order = (category: string, recordId: string) => `${String(CATEGORIES.indexOf(category as never)).padStart(2, "0")}${recordId}`;
  const facts = [...actual.facts].sort((left, right) => (order(left.category, left.recordId) < order(right.category, right.recordId) ? -1 : 1));
  expect(facts.map(({ category, factKey, recordId, json, sortAt, sources }) => ({ category, factKey, recordId, json, sortAt, sources }))).toEqual(
    expected.facts.map(({ category, factKey, record }) => ({
      category,
      factKey,
      recordId: record.recordId,
      json: canonicalJson(record),
      sortAt: recordSortAt(category, record),
      sources: record.sources,
    })),
  );
}

const PAGE_SIZES = [[1], [2, 5], [7], [50], [1000]] as const;
// Random pagings per Bundle beside the fixed ones, which already put a page boundary between every two entries
// ([1]), at alternating and odd offsets ([2, 5], [7]) and nowhere ([1000]): 5 per Bundle (a new seed each run) mix
// those, and CHARTKEY_TEST_FULL=1 runs each case's full count (25 per fixture Bundle, 20 for the repeated ids).
const FULL = process.env.CHARTKEY_TEST_FULL === "1";
const randomPagings = (full: number) => (FULL ? full : Math.min(full, 5));

function checkBundle(bundle: Bundle, runs: number): void {
  const entries = bundleEntries(bundle);
  const expected = normalizeBundle(bundle, SOURCE, SCOPE);
  for (const sizes of PAGE_SIZES) expectSame(expected, paged(pagesOf(entries, sizes)));
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: Math.max(1, entries.length) }), { minLength: 1, maxLength: 6 }), (sizes) => {
      expectSame(expected, paged(pagesOf(entries, sizes)));
    }),
    { numRuns: randomPagings(runs) },
  );
}

describe("PagedNormalization", () => {
  it.each(fixtureBundles())("gives what normalizeResources gives for %s, however it is paged", (_name, bundle) => {
    checkBundle(bundle, 25);
  });

  it("gives the same for C-CDA documents inline, linked by URL, unnamed and unreadable", () => {
    const bundle = ccdaBundle();
    expect(normalizeBundle(bundle, SOURCE, SCOPE).facts.some((fact) => fact.record.sources.some((source) => source.document))).toBe(true);
    checkBundle(bundle, 5);
  });

  it("gives the same for resources repeated under one id, entries that are no resource, and nested Bundles", () => {
    const immunization = (id: string, date: string) => ({ resourceType: "Immunization", id, status: "completed", vaccineCode: { text: "Flu" }, occurrenceDateTime: date });
    const nested = (depth: number): object => (depth === 0 ? immunization("deep", "2020-01-01") : { resourceType: "Bundle", entry: [{ resource: nested(depth - 1) }] });
    const bundle: Bundle = {
      resourceType: "Bundle",
      entry: [
        { resource: immunization("a", "2021-01-01") },
        { resource: immunization("a", "2021-01-01") },
        { resource: immunization("b", "2021-01-01") },
        { resource: "not a resource" },
        { resource: { id: "untyped" } },
        { resource: nested(2) },
        { resource: nested(6) },
        { resource: { resourceType: "Immunization", id: "eie", status: "entered-in-error" } },
      ],
    };
    checkBundle(bundle, 20);
  });

  it.skipIf(samples.action === "skip")("gives the same for every sample bundle beside the checkout (../shared/fhir-samples)", () => {
    const samples = sampleBundles();
    expect(samples.length).toBeGreaterThan(0);
    for (const [, bundle] of samples) checkBundle(bundle, 2);
  }, 600_000);
});
