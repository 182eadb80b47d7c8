import { randomBytes } from "node:crypto";
import type { Bundle } from "fhir/r4";
import { createApplication } from "@/lib/applications";
import { createApiKey, encryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { applySerializedFacts, CATEGORIES, feedCursor, lastSequence, normalizeBundle, type SerializedContext, type SerializedFact } from "@/lib/records";
import { runPool } from "./pool";
import { normalizeForImport, writeFirstImports } from "./seed-batch";
import { bundleVariant, scenarioOf, subjectBundle } from "./subject-bundle";

/** Lab records each feed subject's second import adds after its changeCursor was saved. */
export const FEED_CHANGES = 10;
const CHUNK = 1_000;

export type SeedPlan = { subjects: number; recordsPerSubject: number; feedSubjects: number; concurrency: number };

export type SeededDataset = {
  apiKey: string;
  applicationId: string;
  subjects: string[];
  /** Subjects with a changeCursor saved before their last import, and that cursor. */
  feeds: { subjectId: string; cursor: string }[];
  records: number;
  /** Wall-clock seconds: creating subjects and sources; receipts and imports (normalize, write); in all. */
  seconds: { setup: number; imports: number; total: number };
};

/** Subjects whose consent and first import are written in one transaction. */
const BATCH = 50;

/**
 * Seeds the database DATABASE_URL names with what the product writes: one application with a sandbox key,
 * `subjects` subjects each with a synced source, an active share receipt and its records, from a scenario Bundle
 * normalized by the product's normalizer with the subject as scope. The receipts and first imports are written
 * BATCH subjects per transaction (seed-batch.ts: the rows grantReceipt and applySourceFacts write, without a
 * transaction and a dozen round trips per subject), `concurrency` batches at a time. Feed subjects are imported
 * twice: their first import holds back their last FEED_CHANGES labs, their labs changeCursor is saved, and the
 * second import, through the write path itself (`applySerializedFacts`), adds them, so reading the feed from that
 * cursor returns the second import's changes.
 */
export async function seedDataset(plan: SeedPlan, progress: (line: string) => void): Promise<SeededDataset> {
  const started = performance.now();
  const { applicationId, apiKey, providerId } = await createApplicationAndKey();
  const subjects = await createSubjects(plan.subjects, applicationId, providerId);
  const setupSeconds = (performance.now() - started) / 1000;

  const stride = Math.max(1, Math.ceil(plan.subjects / plan.feedSubjects));
  const feeds: SeededDataset["feeds"] = [];
  const baseCounts = new Map<string, number>();
  const bundles = new Map<number, Bundle>();
  let records = 0;
  let done = 0;
  const importsStarted = performance.now();
  let lastReport = importsStarted;

  await runPool(Math.ceil(plan.subjects / BATCH), plan.concurrency, async (batch) => {
    const indexes = Array.from({ length: Math.min(BATCH, plan.subjects - batch * BATCH) }, (_, offset) => batch * BATCH + offset);
    const imports = indexes.map((index) => {
      const { subjectId, sourceId } = subjects[index]!;
      const { facts, context } = subjectFacts(index, subjectId, sourceId, plan.recordsPerSubject, baseCounts, bundles);
      if (index % stride !== 0) return { subjectId, sourceId, facts, context, later: null };
      const held = new Set(facts.filter((fact) => fact.category === "labs").slice(-FEED_CHANGES));
      return { subjectId, sourceId, facts: facts.filter((fact) => !held.has(fact)), context, later: facts };
    });
    await writeFirstImports(applicationId, imports, CATEGORIES);
    // Imports of different subjects never wait on each other, but the batch's second imports run two at a time: all
    // at once, beside the other batches' transactions, they waited longer than the pool's 5 s for a connection on a
    // loaded machine once each also wrote its context resources.
    const seconds = imports.filter((entry) => entry.later !== null);
    await runPool(seconds.length, 2, async (index) => {
      const { subjectId, sourceId, context, later } = seconds[index]!;
      const sequence = await lastSequence(subjectId, "labs");
      feeds.push({ subjectId, cursor: feedCursor.encode({ applicationId, environment: "sandbox", subjectId }, "labs", { q: sequence }) });
      await applySerializedFacts({ subjectId, sourceId, facts: later!, context });
    });
    done += indexes.length;
    records += imports.reduce((sum, { facts, later }) => sum + (later ?? facts).length, 0);
    const now = performance.now();
    if (now - lastReport > 10_000) {
      lastReport = now;
      progress(`  ${done}/${plan.subjects} subjects, ${records} records, ${Math.round(records / ((now - importsStarted) / 1000))} records/s`);
    }
  });
  const importSeconds = (performance.now() - importsStarted) / 1000;

  const stored = await db().record.count({ where: { subject: { applicationId } } });
  if (stored !== records) throw new Error(`seeded ${records} records but the store holds ${stored}`);
  return {
    apiKey,
    applicationId,
    subjects: subjects.map((subject) => subject.subjectId),
    feeds: feeds.sort((a, b) => (a.subjectId < b.subjectId ? -1 : 1)),
    records,
    seconds: { setup: setupSeconds, imports: importSeconds, total: (performance.now() - started) / 1000 },
  };
}

/**
 * The subject's facts and context resources: its Bundle normalized as an import normalizes a source (a paged
 * normalization, with the subject as scope), each fact with the FHIR resource the FHIR view serves. A Bundle is built
 * once per variant (bundleVariant) and normalized for each subject of it (normalizing reads it, never changes it).
 */
function subjectFacts(index: number, subjectId: string, sourceId: string, target: number, baseCounts: Map<string, number>, bundles: Map<number, Bundle>): { facts: SerializedFact[]; context: SerializedContext[] } {
  const source = { sourceId, sourceName: "Bench Health" };
  const scenario = scenarioOf(index);
  let base = baseCounts.get(scenario);
  if (base === undefined) {
    base = normalizeBundle(subjectBundle(index, 0), source, "u_probe").facts.length;
    baseCounts.set(scenario, base);
  }
  const variant = bundleVariant(index);
  let bundle = bundles.get(variant);
  if (!bundle) {
    bundle = subjectBundle(index, Math.max(0, target - base));
    bundles.set(variant, bundle);
  }
  return normalizeForImport(bundle, source, subjectId);
}

async function createApplicationAndKey() {
  const developer = await db().developer.create({
    data: { id: newId("dev_"), email: `bench-${randomBytes(6).toString("hex")}@example.test`, name: "Bench", passwordHash: "unused" },
  });
  const application = await createApplication({ developerId: developer.id, name: "Bench App" });
  const key = await createApiKey({ applicationId: application.id, environment: "sandbox", name: "bench" });
  const providerId = newId("prov_");
  await db().provider.create({
    data: {
      id: providerId,
      environment: "sandbox",
      name: "Bench Health",
      fhirBaseUrl: "http://localhost/ehr/bench/fhir",
      authorizeUrl: "http://localhost/ehr/bench/authorize",
      tokenUrl: "http://localhost/ehr/bench/token",
      clientId: "bench",
      clientSecretEncrypted: encryptSecret("bench"),
    },
  });
  return { applicationId: application.id, apiKey: key.key, providerId };
}

/** Patients, their subjects for the application and one synced source each, written a thousand at a time. */
async function createSubjects(count: number, applicationId: string, providerId: string) {
  const subjects: { subjectId: string; sourceId: string }[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - start) }, () => ({ patientId: newId("pat_"), subjectId: newId("u_"), sourceId: newId("src_") }));
    await db().patient.createMany({ data: rows.map((row) => ({ id: row.patientId, environment: "sandbox" as const })) });
    await db().subject.createMany({ data: rows.map((row) => ({ id: row.subjectId, applicationId, environment: "sandbox" as const, patientId: row.patientId })) });
    await db().source.createMany({
      data: rows.map((row) => ({
        id: row.sourceId,
        patientId: row.patientId,
        subjectId: row.subjectId,
        providerId,
        connected: true,
        syncStatus: "synced" as const,
        lastSyncedAt: now,
      })),
    });
    subjects.push(...rows.map(({ subjectId, sourceId }) => ({ subjectId, sourceId })));
  }
  return subjects;
}
