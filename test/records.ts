import type { Bundle } from "fhir/r4";
import { authenticateKey, type KeyAuth } from "@/lib/auth";
import { grantReceipt } from "@/lib/consent";
import { applySerializedFacts, applySourceFacts, memorySpool, normalizeBundle, PagedNormalization, type ApplyOutcome, type Category, type NormalizedFact } from "@/lib/records";
import { scenarioBundle } from "@/lib/sandbox";
import { createTestApplication, createTestSubject } from "./factories";

export const TEST_SOURCE = { sourceId: "src_testsource00000000000000", sourceName: "Test Health" };

/** The baseline scenario's facts for a subject, as one source reports them. */
export function scenarioFacts(subjectId: string, scenario = "baseline-adult", source = TEST_SOURCE): NormalizedFact[] {
  return normalizeBundle(scenarioBundle(scenario), source, subjectId).facts;
}

/**
 * A scenario's Bundle imported as a source import writes it (lib/imports/run-source-import.ts): normalized page by
 * page, with each record's FHIR resource and the source's context resources (the FHIR view, issue 52).
 */
export async function importScenario(subjectId: string, scenario = "baseline-adult", source = TEST_SOURCE): Promise<ApplyOutcome> {
  return importBundle(subjectId, scenarioBundle(scenario), source);
}

/** importScenario for any Bundle (a scenario's, edited). */
export async function importBundle(subjectId: string, bundle: Bundle, source = TEST_SOURCE): Promise<ApplyOutcome> {
  const entries = (bundle.entry ?? []).map((entry) => ({ resource: entry.resource as never, fullUrl: entry.fullUrl ?? null }));
  const normalization = new PagedNormalization(source, subjectId, memorySpool());
  normalization.indexPage(entries);
  normalization.normalizePage(entries);
  normalization.finish();
  return applySerializedFacts({ subjectId, sourceId: source.sourceId, facts: normalization.facts(), context: normalization.contextFacts() });
}

/**
 * An application (allowlist `allowlist`), its sandbox key resolved as the pipeline resolves it, and a subject that
 * shares `granted` with it and has the baseline scenario's records imported.
 */
export async function sharingSubject(options: { allowlist?: Category[]; granted?: Category[]; facts?: boolean } = {}) {
  const { application, sandboxKey, liveKey } = await createTestApplication(options.allowlist ? { categoryAllowlist: options.allowlist } : {});
  const key: KeyAuth = await authenticateKey(`Bearer ${sandboxKey}`);
  const subject = await createTestSubject(application.id);
  const receipt = await grantReceipt({
    applicationId: application.id,
    environment: "sandbox",
    subjectId: subject.id,
    categories: options.granted ?? (key.application.categoryAllowlist as Category[]),
  });
  if (options.facts !== false) {
    await applySourceFacts({ subjectId: subject.id, sourceId: TEST_SOURCE.sourceId, facts: scenarioFacts(subject.id) });
  }
  return { application, key, sandboxKey, liveKey, subject, receipt };
}
