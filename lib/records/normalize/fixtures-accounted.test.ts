import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSharedFolder } from "@/test/shared-folder";
import { TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";
import { expandCcdaDocuments } from "./ccda";
import { normalizeResources } from "./resources";

// Every resource of every fixture is a record, a reported skip (groupings such as a DiagnosticReport whose results
// carry it included) or a context resource, each with a reason: nothing vanishes, whichever part of a bundle a
// source sends. The third-party samples live beside the checkout: CI fails without them, a plain clone skips them.
const { absolutePath: SAMPLES_DIR, verdict: samples } = checkSharedFolder("../shared/fhir-samples");
if (samples.action === "skip") console.warn(samples.message);

const ROOT = path.resolve(__dirname, "../../..");
const jsonIn = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith(".json")).map((name) => path.join(dir, name));
const CCDA_DIR = path.join(ROOT, "fixtures/ccda");
const files = [
  ...jsonIn(path.join(ROOT, "fixtures/fidelity")),
  ...fs.readdirSync(CCDA_DIR).filter((name) => name.endsWith(".xml")).map((name) => path.join(CCDA_DIR, name)),
  ...jsonIn(path.join(ROOT, "fixtures/bundles")),
  ...(samples.action === "run" ? jsonIn(SAMPLES_DIR) : []),
];

type Resource = { resourceType?: unknown; id?: unknown };

describe("every resource of every fixture is accounted for", () => {
  it("reads the shared samples (CI must provide them)", () => {
    if (samples.action === "fail") throw new Error(samples.message);
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files.map((file) => [path.relative(ROOT, file), file]))("%s", (_name, file) => {
    const bundle = file.endsWith(".xml") ? documentBundle(file) : (JSON.parse(fs.readFileSync(file, "utf8")) as { entry?: { resource?: Resource }[] });
    const resources = (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));
    fc.assert(
      fc.property(fc.subarray(resources), (subset) => {
        const result = normalizeResources(subset, TEST_SOURCE, TEST_SCOPE);
        const accounted = [
          // A fact a C-CDA document states again lists its resource among the record's sources.
          ...result.facts.flatMap((fact) => fact.record.sources.map((source) => `${source.resourceType}/${source.resourceId}`)),
          ...result.skipped.map((skip) => `${skip.resourceType}/${skip.resourceId}`),
          ...result.context.map((item) => `${item.resourceType}/${item.resourceId}`),
        ].sort();
        // The resources of the C-CDA documents among them are accounted for too.
        const derived = expandCcdaDocuments(subset.map((resource) => ({ resource: resource as Record<string, unknown>, fullUrl: null }))).derived.map(({ resource }) => resource as Resource);
        expect(accounted).toEqual([...subset, ...derived].map((resource) => `${String(resource.resourceType)}/${String(resource.id)}`).sort());
        for (const item of [...result.skipped, ...result.context]) expect(item.reason.trim()).not.toBe("");
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});

/** A C-CDA fixture as a source sends it: a DocumentReference with the document inline, and as a Binary its url names. */
function documentBundle(file: string) {
  const data = fs.readFileSync(file).toString("base64");
  const type = { coding: [{ system: "http://loinc.org", code: "34133-9" }] };
  return {
    entry: [
      { resource: { resourceType: "DocumentReference", id: "inline", status: "current", type, content: [{ attachment: { contentType: "application/xml", data } }] } },
      { resource: { resourceType: "DocumentReference", id: "by-url", status: "current", type, content: [{ attachment: { contentType: "application/xml", url: "Binary/ccd" } }] } },
      { resource: { resourceType: "Binary", id: "ccd", contentType: "application/xml", data } },
    ],
  };
}
