import { randomUUID } from "node:crypto";
import type PgBoss from "pg-boss";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { QUEUE } from "@/lib/queue";
import { sourceResources } from "@/lib/sandbox";
import { SourceError } from "@/lib/sources";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { sourceImportJob } from "./import-job";
import { runSourceImport } from "./run-source-import";

/**
 * A subject with one source at a sandbox provider, whose health system serves a fixture source's resources. The
 * source has no tokens: the SMART client refuses to read it (`not_connected`), so the import job's code fails it.
 */
async function sourceAtPhase(syncMode: "one_time" | "continuous" = "one_time") {
  const { application } = await createTestApplication({ syncMode });
  const subject = await createTestSubject(application.id);
  const provider = await db().provider.upsert({
    where: { id: "test-provider" },
    update: {},
    create: { id: "test-provider", environment: "sandbox", name: "Test Health", fhirBaseUrl: "http://x/fhir", authorizeUrl: "http://x/a", tokenUrl: "http://x/t", clientId: "c", clientSecretEncrypted: "unused" },
  });
  const source = await db().source.create({
    data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: provider.id, connected: true },
  });
  return { subject, source, application };
}

const syncFailures = async (applicationId: string) =>
  (await db().event.findMany({ where: { applicationId, type: "sync.failed" }, orderBy: { createdAt: "asc" } })).map((event) => event.data);

/** The job as pg-boss hands it to the worker (which asks for its metadata): this attempt and the policy's limit. */
const importJob = (sourceId: string, retryCount: number) =>
  ({ id: randomUUID(), name: QUEUE.sourceImport, data: { sourceId }, retryCount, retryLimit: sourceImportJob.policy.retryLimit }) as PgBoss.JobWithMetadata<{ sourceId: string }>;

const phase = (n: number) => async () => sourceResources("baseline-adult", "primary", n);

describe("a source import", () => {
  it("writes the source's records, keeps its counts, and marks the source synced", async () => {
    const { subject, source } = await sourceAtPhase();
    const { importId, outcome } = await runSourceImport(source.id, phase(0));
    expect(outcome.upserts).toBeGreaterThan(10);
    const stored = await db().sourceImport.findUniqueOrThrow({ where: { id: importId } });
    expect(stored.status).toBe("completed");
    const records = stored.recordCounts as Record<string, number>;
    expect(Object.values(records).reduce((a, b) => a + b, 0)).toBe(await db().record.count({ where: { subjectId: subject.id, deletedAt: null } }));
    expect(await db().source.findUniqueOrThrow({ where: { id: source.id } })).toMatchObject({ syncStatus: "synced", lastError: null });
  });

  it("keeps no page it is handed: pages destroyed once handed over, arriving out of order, import what the same resources returned at once import", async () => {
    const resources = sourceResources("baseline-adult", "primary", 0);
    const pages = Array.from({ length: Math.ceil(resources.length / 7) }, (_, index) => ({ rank: index, resources: structuredClone(resources.slice(index * 7, index * 7 + 7)) }));
    const paged = await sourceAtPhase();
    const handed: number[] = [];
    await runSourceImport(paged.source.id, async (_id, _categories, onPage) => {
      // Last page first: the import lists resources by rank, as fetchPatientResources does, whatever the arrival order.
      for (const page of [...pages].reverse()) {
        await onPage(page);
        handed.push(page.rank);
        // What the import kept of the page, if anything, is gone now.
        for (const resource of page.resources) for (const key of Object.keys(resource)) delete (resource as unknown as Record<string, unknown>)[key];
        page.resources.length = 0;
      }
    });
    expect(handed).toHaveLength(pages.length);
    const whole = await sourceAtPhase();
    await runSourceImport(whole.source.id, async () => structuredClone(resources));

    const stored = async ({ subject, source }: Awaited<ReturnType<typeof sourceAtPhase>>) => ({
      records: (await db().record.findMany({ where: { subjectId: subject.id }, orderBy: [{ category: "asc" }, { factKey: "asc" }] })).map((record) => ({
        category: record.category,
        factKey: record.factKey,
        // Record ids are the subject's own: the two subjects' differ.
        data: JSON.stringify(record.data).replace(/rec_[0-9A-Za-z]{24}/g, "rec").replaceAll(source.id, "src"),
        sortAt: record.sortAt,
      })),
      imported: await db().sourceImport.findFirstOrThrow({ where: { sourceId: source.id }, select: { recordCounts: true, skipCounts: true, fidelity: true, upserts: true } }),
      resourceCounts: (await db().source.findUniqueOrThrow({ where: { id: source.id } })).resourceCounts,
    });
    const [fromPages, fromWhole] = [await stored(paged), await stored(whole)];
    expect(fromPages.records.length).toBeGreaterThan(10);
    expect(fromPages).toEqual(fromWhole);
  });

  it("is idempotent: rerunning it (a retry, or a restart after a crash) writes nothing new", async () => {
    const { subject, source } = await sourceAtPhase();
    await runSourceImport(source.id, phase(0));
    const changes = await db().recordChange.count({ where: { subjectId: subject.id } });
    const again = await runSourceImport(source.id, phase(0));
    expect(again.outcome).toMatchObject({ upserts: 0, deletes: 0 });
    expect(await db().recordChange.count({ where: { subjectId: subject.id } })).toBe(changes);
  });

  it("a failed fetch keeps the records already imported and says why; an import left running is closed as interrupted", async () => {
    const { subject, source } = await sourceAtPhase();
    await runSourceImport(source.id, phase(0));
    const before = await db().record.count({ where: { subjectId: subject.id, deletedAt: null } });
    await db().sourceImport.create({ data: { id: newId("imp_"), sourceId: source.id, subjectId: subject.id } });
    await expect(runSourceImport(source.id, async () => { throw new Error("health system answered 503"); })).rejects.toThrow("503");
    expect(await db().record.count({ where: { subjectId: subject.id, deletedAt: null } })).toBe(before);
    expect(await db().source.findUniqueOrThrow({ where: { id: source.id } })).toMatchObject({ syncStatus: "partial", lastError: "import_failed: health system answered 503" });
    const statuses = (await db().sourceImport.findMany({ where: { sourceId: source.id }, orderBy: { startedAt: "asc" } })).map((row) => [row.status, row.error]);
    expect(statuses).toEqual([["completed", null], ["failed", "interrupted"], ["failed", "import_failed: health system answered 503"]]);
  });
});

describe("sync.failed (continuous sync)", () => {
  it("carries the SMART client's failure code, and the source's lastError starts with it", async () => {
    const { source, subject, application } = await sourceAtPhase("continuous");
    const refused = new SourceError("reauthorization_required", "The token endpoint refused the refresh token.");
    await expect(runSourceImport(source.id, async () => { throw refused; })).rejects.toBe(refused);
    const [failure] = await syncFailures(application.id);
    expect(failure).toEqual({ subject: subject.id, sourceId: source.id, providerId: "test-provider", importId: expect.stringMatching(/^imp_/), code: "reauthorization_required" });
    expect((await db().source.findUniqueOrThrow({ where: { id: source.id } })).lastError).toBe("reauthorization_required: The token endpoint refused the refresh token.");
    // Our own failures (not the health system's) are import_failed.
    await expect(runSourceImport(source.id, async () => { throw new TypeError("x is undefined"); })).rejects.toThrow("x is undefined");
    expect((await syncFailures(application.id)).map((data) => (data as { code: string }).code)).toEqual(["reauthorization_required", "import_failed"]);
  });

  it("is sent once, when the import has finally failed: not for an attempt the job will retry", async () => {
    const { source, application } = await sourceAtPhase("continuous");
    const unreachable = async () => { throw new SourceError("source_unavailable", "The FHIR server answered 503 after 3 attempts.", { status: 503 }); };
    for (let attempt = 0; attempt < sourceImportJob.policy.retryLimit; attempt++) {
      await expect(runSourceImport(source.id, unreachable, { lastAttempt: false })).rejects.toThrow("503");
    }
    expect(await syncFailures(application.id)).toEqual([]);
    await expect(runSourceImport(source.id, unreachable, { lastAttempt: true })).rejects.toThrow("503");
    expect(await syncFailures(application.id)).toEqual([expect.objectContaining({ code: "source_unavailable" })]);
  });

  it("the import job retries only what another attempt may get past: a source it cannot read fails once, reported once", async () => {
    const { source, application } = await sourceAtPhase("continuous");
    // Not the last attempt, yet final: no token to read with is not cured by waiting, so the job ends (no retry).
    await expect(sourceImportJob.handler(importJob(source.id, 0))).resolves.toBeUndefined();
    expect(await syncFailures(application.id)).toEqual([expect.objectContaining({ sourceId: source.id, code: "not_connected" })]);
    expect(await db().sourceImport.findFirstOrThrow({ where: { sourceId: source.id } })).toMatchObject({ status: "failed", error: expect.stringMatching(/^not_connected: /) });
    // On the last attempt the job fails as pg-boss should record it.
    await expect(sourceImportJob.handler(importJob(source.id, sourceImportJob.policy.retryLimit))).rejects.toMatchObject({ code: "not_connected" });
  });
});
