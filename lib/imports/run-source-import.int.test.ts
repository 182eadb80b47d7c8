import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { sourceResources } from "@/lib/sandbox";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { runSourceImport } from "./run-source-import";

/** A subject with one source at a sandbox provider, whose health system serves a fixture source's resources. */
async function sourceAtPhase() {
  const { application } = await createTestApplication();
  const subject = await createTestSubject(application.id);
  const provider = await db().provider.upsert({
    where: { id: "test-provider" },
    update: {},
    create: { id: "test-provider", environment: "sandbox", name: "Test Health", fhirBaseUrl: "http://x/fhir", authorizeUrl: "http://x/a", tokenUrl: "http://x/t", clientId: "c", clientSecretEncrypted: "unused" },
  });
  const source = await db().source.create({
    data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: provider.id, connected: true },
  });
  return { subject, source };
}

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
    expect(await db().source.findUniqueOrThrow({ where: { id: source.id } })).toMatchObject({ syncStatus: "partial", lastError: "health system answered 503" });
    const statuses = (await db().sourceImport.findMany({ where: { sourceId: source.id }, orderBy: { startedAt: "asc" } })).map((row) => [row.status, row.error]);
    expect(statuses).toEqual([["completed", null], ["failed", "interrupted"], ["failed", "health system answered 503"]]);
  });
});
