import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSharedFolder } from "@/test/shared-folder";
import { TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";
import { normalizeResources } from "./resources";

// Every resource of every fixture is a record, a reported skip (groupings such as a DiagnosticReport whose results
// carry it included) or a context resource, each with a reason: nothing vanishes, whichever part of a bundle a
// source sends. The third-party samples live beside the checkout: CI fails without them, a plain clone skips them.
const { absolutePath: SAMPLES_DIR, verdict: samples } = checkSharedFolder("../shared/fhir-samples");
if (samples.action === "skip") console.warn(samples.message);

const ROOT = path.resolve(__dirname, "../../..");
const jsonIn = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith(".json")).map((name) => path.join(dir, name));
const files = [
  ...jsonIn(path.join(ROOT, "fixtures/fidelity")),
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
    const bundle = JSON.parse(fs.readFileSync(file, "utf8")) as { entry?: { resource?: Resource }[] };
    const resources = (bundle.entry ?? []).flatMap((entry) => (entry.resource ? [entry.resource] : []));
    fc.assert(
      fc.property(fc.subarray(resources), (subset) => {
        const result = normalizeResources(subset, TEST_SOURCE, TEST_SCOPE);
        const accounted = [
          ...result.facts.map((fact) => `${fact.record.sources[0]!.resourceType}/${fact.record.sources[0]!.resourceId}`),
          ...result.skipped.map((skip) => `${skip.resourceType}/${skip.resourceId}`),
          ...result.context.map((item) => `${item.resourceType}/${item.resourceId}`),
        ].sort();
        expect(accounted).toEqual(subset.map((resource) => `${String(resource.resourceType)}/${String(resource.id)}`).sort());
        for (const item of [...result.skipped, ...result.context]) expect(item.reason.trim()).not.toBe("");
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
