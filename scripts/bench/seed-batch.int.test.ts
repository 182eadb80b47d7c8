import { describe, expect, it } from "vitest";
import { encryptSecret } from "@/lib/auth";
import { grantReceipt } from "@/lib/consent";
import { db, pgPool } from "@/lib/db";
import { newId } from "@/lib/ids";
import { applySerializedFacts, CATEGORIES } from "@/lib/records";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { normalizeForImport, writeFirstImports } from "./seed-batch";
import { subjectBundle } from "./subject-bundle";

/** Everything a subject's consent and imports wrote, without the ids and times that differ from one write to the next. */
async function written(subjectId: string) {
  const query = async (text: string) => (await pgPool().query(text, [subjectId])).rows;
  return {
    records: await query(
      `SELECT id, category, "factKey", data::text AS data, "contentHash", resource::text AS resource, sources::text AS sources, "sortAt", "deletedAt", version, "createdAt" = "updatedAt" AS "oneWrite"
       FROM "Record" WHERE "subjectId" = $1 ORDER BY id`,
    ),
    context: await query(`SELECT id, "sourceId", "resourceType", resource::text AS resource, "contentHash", version FROM "FhirContext" WHERE "subjectId" = $1 ORDER BY id`),
    changes: await query(`SELECT category, sequence, "recordId", "changeType" FROM "RecordChange" WHERE "subjectId" = $1 ORDER BY category, sequence`),
    counters: await query(`SELECT category, "lastSequence" FROM "ChangeCounter" WHERE "subjectId" = $1 ORDER BY category`),
    receipts: await query(
      `SELECT "applicationId", environment, categories, status, "connectSessionId", "patientTokenHash", "earlierPatientTokenHashes", "revokedAt", "revokedReason", "expiredAt",
         "expiresAt" - "grantedAt" AS term
       FROM "ConsentReceipt" WHERE "subjectId" = $1`,
    ),
  };
}

describe("the bench seed's batched first imports", () => {
  it("write exactly the rows grantReceipt and applySerializedFacts write for a new subject, FHIR resources and context resources included", async () => {
    const { application } = await createTestApplication();
    const subject = await createTestSubject(application.id);
    const provider = await db().provider.create({
      data: { id: newId("prov_"), environment: "sandbox", name: "Bench Health", fhirBaseUrl: "http://localhost/fhir", authorizeUrl: "http://localhost/a", tokenUrl: "http://localhost/t", clientId: "bench", clientSecretEncrypted: encryptSecret("bench") },
    });
    const source = await db().source.create({ data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: provider.id, connected: true } });
    const { facts, context } = normalizeForImport(subjectBundle(0, 30), { sourceId: source.id, sourceName: "Bench Health" }, subject.id);
    expect(new Set(facts.map((fact) => fact.category)).size).toBeGreaterThan(3);

    await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: CATEGORIES });
    await applySerializedFacts({ subjectId: subject.id, sourceId: source.id, facts, context });
    const product = await written(subject.id);
    expect(product.records.length).toBeGreaterThan(30);
    expect(product.records.every((record) => record.resource !== null)).toBe(true);
    expect(product.context.length).toBeGreaterThan(0);

    for (const table of ["RecordChange", "ChangeCounter", "Record", "FhirContext", "ConsentReceipt"]) await pgPool().query(`DELETE FROM "${table}" WHERE "subjectId" = $1`, [subject.id]);
    await writeFirstImports(application.id, [{ subjectId: subject.id, sourceId: source.id, facts, context }], CATEGORIES);
    expect(await written(subject.id)).toEqual(product);

    // The source's later import through the write path finds the batch's records as its own and changes nothing.
    expect(await applySerializedFacts({ subjectId: subject.id, sourceId: source.id, facts, context })).toMatchObject({ upserts: 0, deletes: 0 });
    expect(await written(subject.id)).toEqual(product);
  });
});
