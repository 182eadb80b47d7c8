import { describe, expect, it } from "vitest";
import { connectSessionSchema } from "@/lib/connect";
import { db } from "@/lib/db";
import { importSource } from "@/lib/imports";
import { jsonText } from "@/lib/http";
import { getHealthRecord, snapshotSchema } from "@/lib/users";
import { createTestApplication } from "@/test/factories";
import { getSession, serveSyntheticEhr, simulatedUser } from "@/test/sandbox";

serveSyntheticEhr();

// The fidelity report of an import, end to end (fidelity-report.test.ts covers skips and warnings): a simulated patient's health system is read by the SMART client, the
// import stores its report, and the session's and the snapshot's sources[] carry it (in their OpenAPI schemas).
describe("the fidelity report of an import", () => {
  it("is stored with the import and shown on the session's and the snapshot's sources, only for what the read may see", async () => {
    const { sandboxKey } = await createTestApplication();
    const { session, subject, auth } = await simulatedUser(sandboxKey, "baseline-adult", ["conditions", "labs", "medications"]);
    const [source] = session.sources;
    const stored = await db().sourceImport.findFirstOrThrow({ where: { sourceId: source!.sourceId, status: "completed" }, orderBy: { startedAt: "desc" } });
    const fidelity = stored.fidelity as { skippedByType: Record<string, Record<string, number>>; context: Record<string, number> };
    const sessionReport = connectSessionSchema.parse(session).sources[0]!.fidelity!;
    expect(sessionReport.importId).toBe(stored.id);
    expect(sessionReport.records).toEqual({ ...zeroCounts(), ...(stored.recordCounts as Record<string, number>) });
    expect(sessionReport.records.labs).toBeGreaterThan(0);
    expect(sessionReport.records.allergies).toBe(0);
    expect(sessionReport.context).toEqual(Object.entries(fidelity.context).map(([resourceType, count]) => ({ resourceType, count })));
    expect(sessionReport.skipped).toEqual(
      Object.entries(fidelity.skippedByType).flatMap(([resourceType, reasons]) => Object.entries(reasons).map(([reason, count]) => ({ resourceType, reason, count }))),
    );
    // The breakdown adds up to the totals the source already carried.
    expect(sessionReport.skipped.reduce((sum, row) => sum + row.count, 0)).toBe((session.sources[0] as unknown as { skippedCount: number }).skippedCount);
    expect(Object.values(sessionReport.records).reduce((sum, count) => sum + count, 0)).toBe((session.sources[0] as unknown as { recordCount: number }).recordCount);

    // The snapshot's report counts only the categories the key may read now: narrow the allowlist to labs.
    const labsOnly = { ...auth, application: { ...auth.application, categoryAllowlist: ["labs"] } };
    // The snapshot as answered: its records spliced in as the stored JSON text.
    const snapshot = snapshotSchema.parse(JSON.parse(jsonText(await getHealthRecord(labsOnly, subject, undefined)).text));
    const snapshotReport = snapshot.sources[0]!.fidelity!;
    expect(snapshotReport).toMatchObject({ importId: stored.id, skipped: sessionReport.skipped, context: sessionReport.context, warnings: sessionReport.warnings });
    expect(snapshotReport.records).toEqual({ ...zeroCounts(), labs: sessionReport.records.labs });

    // A running import has no report yet: the latest completed one stays shown while the next runs, and a new one replaces it.
    const next = await importSource(source!.sourceId);
    expect((await getSession(sandboxKey, session.id)).sources[0]).toMatchObject({ fidelity: { importId: next.importId } });
  });
});

function zeroCounts(): Record<string, number> {
  return { demographics: 0, conditions: 0, medications: 0, allergies: 0, immunizations: 0, labs: 0, vitals: 0, procedures: 0, documents: 0, claims: 0 };
}
