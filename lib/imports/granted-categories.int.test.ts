import { describe, expect, it } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { attachSource, chooseProviders, completeSession, createConnectSession } from "@/lib/connect";
import { db } from "@/lib/db";
import { issueAuthorizationCodeDirectly } from "@/lib/ehr";
import { beginAuthorization, completeAuthorization, openSourceTokens } from "@/lib/sources";
import { createTestApplication } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
import { importSource } from "./import-job";

// Issue 26 item 1: the platform asks a health system only for the scopes of the categories the patient is asked
// to share, reads only the shared categories' types, and stores only the shared categories' records.
const PROVIDER = "riverbend-health";
const PATIENT_KEY = "baseline-adult.primary";
const server = serveSyntheticEhr();
/**
 * The context an import of any clinical category reads (what its records reference), asked for with its types; the
 * synthetic health systems advertise SMART v2 (permission-v2), so every scope is a v2 one (`.rs`, `.r` for the
 * Patient read by id) and Observation and DiagnosticReport are narrowed to the shared categories. Medication is asked
 * for only with medications and Specimen only with labs (lib/sources/smart-scopes.ts).
 */
const CONTEXT_SCOPES = "patient/Encounter.rs patient/Practitioner.rs patient/Organization.rs patient/Location.rs";
const OBSERVATION = "patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category";

/** A Connect session asking for `asked`, the patient signing in at the health system and then sharing `granted`. */
async function connect(sandboxKey: string, asked: string[], granted: string[], externalUserId: string) {
  const ehr = server();
  const key = await authenticateKey(`Bearer ${sandboxKey}`);
  const session = await createConnectSession(key, { categories: asked, externalUserId }, ehr.origin);
  await chooseProviders(session.id, "sandbox", [PROVIDER]);
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId: PROVIDER, redirectUri: `${ehr.origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: PATIENT_KEY });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(session.id, PROVIDER, completed.tokens);
  const { subjectId } = await completeSession(session.id, granted);
  const mark = ehr.served.length;
  const imported = await importSource(sourceId);
  const reads = ehr.served.slice(mark).filter((request) => request.method === "GET").map((request) => new URL(request.path, ehr.origin));
  // The searches by patient (a category's type), and apart the searches by `_id` (the context the records reference).
  const requested = reads.filter((url) => !url.searchParams.has("_id")).map((url) => url.pathname.split("/")[4]);
  const contextSearches = reads.filter((url) => url.searchParams.has("_id")).map((url) => `${url.pathname.split("/")[4]}?_id=${url.searchParams.get("_id")}`);
  return { requestedScope: new URL(begun.authorizationUrl).searchParams.get("scope"), tokens: completed.tokens, sourceId, subjectId, imported, requested, contextSearches };
}

/** The categories an import counted records of. */
const counted = (counts: Record<string, number>) => Object.keys(counts).filter((category) => counts[category]! > 0).sort();

async function storedCategories(subjectId: string): Promise<string[]> {
  const rows = await db().record.groupBy({ by: ["category"], where: { subjectId, deletedAt: null }, orderBy: { category: "asc" } });
  return rows.map((row) => row.category);
}

describe("importing only what the patient shared", () => {
  it("asks for exactly the shared categories' scopes, reads only their types and stores only their records", async () => {
    const { sandboxKey } = await createTestApplication();
    const shared = await connect(sandboxKey, ["conditions", "allergies", "immunizations", "vitals"], ["conditions", "allergies", "immunizations", "vitals"], "patient-a");
    expect(shared.requestedScope).toBe(
      `launch/patient offline_access patient/Condition.rs patient/AllergyIntolerance.rs patient/Immunization.rs ${OBSERVATION}|vital-signs ${CONTEXT_SCOPES}`,
    );
    expect(shared.tokens.scope).toBe(shared.requestedScope);
    expect([...new Set(shared.requested)].sort()).toEqual(["AllergyIntolerance", "Condition", "Immunization", "Observation"]);
    expect(await storedCategories(shared.subjectId)).toEqual(["allergies", "conditions", "immunizations", "vitals"]);
    // The import's counts (the Connect done page's "N records") are the stored records' count.
    const counts = (await db().sourceImport.findUniqueOrThrow({ where: { id: shared.imported.importId } })).recordCounts as Record<string, number>;
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    expect(total).toBe(await db().record.count({ where: { subjectId: shared.subjectId, deletedAt: null } }));
    expect(counted(counts)).toEqual(["allergies", "conditions", "immunizations", "vitals"]);
  });

  it("a category the patient unticks after signing in is neither stored nor counted, though its type was read for another", async () => {
    const { sandboxKey } = await createTestApplication();
    const shared = await connect(sandboxKey, ["labs", "vitals"], ["labs"], "patient-b");
    expect(shared.requestedScope).toBe(`launch/patient offline_access ${OBSERVATION}|laboratory ${OBSERVATION}|vital-signs patient/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB ${CONTEXT_SCOPES} patient/Specimen.rs`);
    expect(await storedCategories(shared.subjectId)).toEqual(["labs"]);
    const counts = (await db().sourceImport.findUniqueOrThrow({ where: { id: shared.imported.importId } })).recordCounts as Record<string, number>;
    expect(counted(counts)).toEqual(["labs"]);
  });

  it("a later consent that adds categories imports them then, and keeps what was shared before", async () => {
    const { sandboxKey } = await createTestApplication();
    const first = await connect(sandboxKey, ["allergies"], ["allergies"], "patient-c");
    expect(await storedCategories(first.subjectId)).toEqual(["allergies"]);
    const allergies = await db().record.findMany({ where: { subjectId: first.subjectId, category: "allergies" }, select: { id: true } });

    const later = await connect(sandboxKey, ["allergies", "immunizations", "demographics"], ["allergies", "immunizations", "demographics"], "patient-c");
    expect(later.subjectId).toBe(first.subjectId);
    expect(later.requestedScope).toBe(`launch/patient offline_access patient/Patient.r patient/AllergyIntolerance.rs patient/Immunization.rs ${CONTEXT_SCOPES}`);
    expect(await storedCategories(later.subjectId)).toEqual(["allergies", "demographics", "immunizations"]);
    expect(later.imported.outcome.categories).toEqual(["demographics", "immunizations"]);
    // The allergies records are the same records, unchanged: no tombstone, no rewrite.
    expect(await db().record.findMany({ where: { subjectId: first.subjectId, category: "allergies", deletedAt: null }, select: { id: true } })).toEqual(allergies);
  });

  it("a category unticked after sign-in narrows the stored tokens to the shared types, and refreshes keep them narrow", async () => {
    const { sandboxKey } = await createTestApplication();
    const shared = await connect(sandboxKey, ["allergies", "conditions", "demographics"], ["allergies"], "patient-e");
    expect(shared.tokens.scope).toBe(`launch/patient offline_access patient/Patient.r patient/Condition.rs patient/AllergyIntolerance.rs ${CONTEXT_SCOPES}`);
    const narrow = `launch/patient offline_access patient/AllergyIntolerance.rs ${CONTEXT_SCOPES}`;
    const fhir = `${server().origin}/ehr/${PROVIDER}/fhir`;
    /** What the source's stored access token may read now, at the health system itself. */
    const storedTokenReads = async () => {
      const tokens = openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: shared.sourceId } }));
      const get = (path: string) => fetch(`${fhir}/${path}`, { headers: { Authorization: `Bearer ${tokens.accessToken}`, Accept: "application/fhir+json" } });
      return {
        scope: tokens.scope,
        allergies: (await get(`AllergyIntolerance?patient=${tokens.patientId}`)).status,
        conditions: (await get(`Condition?patient=${tokens.patientId}`)).status,
        patient: (await get(`Patient/${tokens.patientId}`)).status,
      };
    };
    expect(await storedTokenReads()).toEqual({ scope: narrow, allergies: 200, conditions: 403, patient: 403 });
    expect(await storedCategories(shared.subjectId)).toEqual(["allergies"]);

    // The access token expires: the refresh asks for the narrowed scope again (the refresh token keeps the grant's).
    await db().source.update({ where: { id: shared.sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 1000) } });
    const before = (await db().source.findUniqueOrThrow({ where: { id: shared.sourceId } })).accessTokenEncrypted;
    await importSource(shared.sourceId);
    expect((await db().source.findUniqueOrThrow({ where: { id: shared.sourceId } })).accessTokenEncrypted).not.toBe(before);
    expect(await storedTokenReads()).toEqual({ scope: narrow, allergies: 200, conditions: 403, patient: 403 });
  });

  it("reads the context the shared records reference, by _id, so a prescription keeps the Medication it names", async () => {
    const { sandboxKey } = await createTestApplication();
    const shared = await connect(sandboxKey, ["medications"], ["medications"], "patient-f");
    expect([...new Set(shared.requested)].sort()).toEqual(["MedicationDispense", "MedicationRequest", "MedicationStatement"]);
    // One search per referenced type, naming only the referenced ids: never every Encounter of the patient.
    expect(shared.contextSearches.sort()).toEqual([
      "Encounter?_id=baseline-adult-enc-2023-04-annual,baseline-adult-enc-2024-01-sinus",
      "Medication?_id=baseline-adult-med-metformin-500",
      "Practitioner?_id=baseline-adult-prac-okonkwo",
    ]);
    const medications = await db().record.findMany({ where: { subjectId: shared.subjectId, category: "medications", deletedAt: null } });
    const metformin = medications.find((record) => JSON.stringify(record.data).includes('"resourceId":"baseline-adult-medreq-metformin"'));
    const data = metformin?.data as { code: { codings: { code: string }[] }; requester: string | null; encounter: { type: { text: string } | null } | null };
    expect(data.code.codings.map((coding) => coding.code)).toContain("861007");
    expect(data.requester).toMatch(/Okonkwo/);
    expect(data.encounter?.type?.text).toBeTruthy();
    const report = await db().sourceImport.findUniqueOrThrow({ where: { id: shared.imported.importId } });
    // Nothing skipped but the two encounters read (as reported skips whose date, type and place the records carry).
    expect(report.skipCounts).toEqual({ "Encounter is not a record: the records that reference it carry its date, type and location": 2 });
    expect((report.fidelity as { context: Record<string, number> }).context).toEqual({ Medication: 1, Practitioner: 1 });
  });

  it("the synthetic health system refuses reads outside the granted per-type scopes", async () => {
    const { sandboxKey } = await createTestApplication();
    const shared = await connect(sandboxKey, ["allergies"], ["allergies"], "patient-d");
    const fhir = `${server().origin}/ehr/${PROVIDER}/fhir`;
    const get = (path: string) => fetch(`${fhir}/${path}`, { headers: { Authorization: `Bearer ${shared.tokens.accessToken}`, Accept: "application/fhir+json" } });
    expect((await get(`AllergyIntolerance?patient=${shared.tokens.patientId}`)).status).toBe(200);
    expect((await get(`Condition?patient=${shared.tokens.patientId}`)).status).toBe(403);
    expect((await get(`Observation?patient=${shared.tokens.patientId}`)).status).toBe(403);
    expect((await get(`Patient/${shared.tokens.patientId}`)).status).toBe(403);
  });
});
