import { readFileSync } from "node:fs";
import path from "node:path";
import type { Binary, DocumentReference } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { openSourceTokens } from "@/lib/sources";
import { request } from "@/test/api-server";
import { addThirdPartyProvider, connectThirdPartyPatient, startThirdPartySmartForFile } from "@/test/third-party-smart/live-patient";
import { importSource } from "./import-job";

// A C-CDA document a DocumentReference links by url (`Binary/<id>` on the source's FHIR base), end to end against a
// SMART on FHIR server no code of ours serves (test/third-party-smart): the sign-in asks patient/Binary.read, the
// import reads the linked Binary, and the document's sections become records of the shared categories naming the
// DocumentReference. A Binary of another patient that the record links is refused by the server and stays unread.

const PATIENT = "999";
const SHARED = ["documents", "medications", "conditions", "allergies"] as const;
const CCD = readFileSync(path.join(process.cwd(), "fixtures/ccda/CCD_1.xml")).toString("base64");

const servers = startThirdPartySmartForFile({ allowTestServerHost: true });

/** A patient's summary of episode note, its C-CDA in a Binary the note links (and names as its security context). */
async function summaryNote(id: string, patient: string, binaryId = `${id}-xml`) {
  const smart = servers.smart();
  const document: DocumentReference = {
    resourceType: "DocumentReference",
    id,
    status: "current",
    type: { coding: [{ system: "http://loinc.org", code: "34133-9", display: "Summary of episode note" }] },
    subject: { reference: `Patient/${patient}` },
    date: "2026-11-01T10:00:00Z",
    content: [{ attachment: { contentType: "application/xml", url: `Binary/${binaryId}` }, format: { system: "http://ihe.net/fhir/ValueSet/IHE.FormatCode.codesystem", code: "urn:hl7-org:sdwg:ccda-structuredBody:2.1" } }],
  };
  await smart.putResource(document);
  const binary: Binary = { resourceType: "Binary", id: binaryId, contentType: "application/xml", securityContext: { reference: `DocumentReference/${id}` }, data: CCD };
  if (binaryId === `${id}-xml`) await smart.putResource(binary);
}

type ApiRecord = { recordId: string; sources: { resourceType: string; resourceId: string | null; document?: { resourceType: string; resourceId: string | null } }[] };

const recordsOf = async (key: string, subjectId: string, category: string) => {
  const page = await request(servers.api().origin, "GET", `/api/v1/users/${subjectId}/records/${category}?limit=100`, { token: key });
  expect(page.status).toBe(200);
  return page.body.data as ApiRecord[];
};

describe("a C-CDA document linked by a DocumentReference, from a third-party SMART on FHIR server", () => {
  it("is read with patient/Binary.read and its sections become records of the shared categories; another patient's Binary is refused; a re-import changes nothing", async () => {
    await summaryNote("ccd-summary", PATIENT);
    await summaryNote("pat015-summary", "pat015");
    // The patient's record links the other patient's document (misfiled): the server refuses that Binary.
    await summaryNote("misfiled-summary", PATIENT, "pat015-summary-xml");

    const smart = servers.smart();
    const { provider } = await addThirdPartyProvider(smart);
    const { liveKey, subjectId, source, authorizationUrl } = await connectThirdPartyPatient({ api: servers.api(), providerId: provider.id, patient: PATIENT, asked: SHARED });
    expect(authorizationUrl.searchParams.get("scope")!.split(" ")).toContain("patient/Binary.read");

    const first = await importSource(source.id);
    expect(await db().source.findUniqueOrThrow({ where: { id: source.id } })).toMatchObject({ syncStatus: "synced", lastError: null });
    expect(first.outcome.upserts).toBeGreaterThan(0);
    // Both linked Binaries were asked for; the server answers the patient's own and refuses the other patient's.
    expect(servers.smart().requests).toEqual(expect.arrayContaining(["GET /fhir/Binary/ccd-summary-xml", "GET /fhir/Binary/pat015-summary-xml"]));
    const { accessToken } = openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: source.id } }));
    const read = (id: string) => fetch(`${servers.smart().fhirBaseUrl}/Binary/${id}`, { headers: { authorization: `Bearer ${accessToken}` } }).then((response) => response.status);
    expect([await read("ccd-summary-xml"), await read("pat015-summary-xml")]).toEqual([200, 403]);

    // Both notes are documents records; only the one whose C-CDA was read yields records of the shared categories.
    const documents = await recordsOf(liveKey, subjectId, "documents");
    for (const id of ["ccd-summary", "misfiled-summary"]) expect(documents.some((record) => record.sources.some((ref) => ref.resourceType === "DocumentReference" && ref.resourceId === id))).toBe(true);
    for (const category of ["medications", "conditions", "allergies"]) {
      const fromDocument = (await recordsOf(liveKey, subjectId, category)).filter((record) => record.sources.some((ref) => ref.document !== undefined));
      expect(fromDocument.length, category).toBeGreaterThan(0);
      for (const record of fromDocument) expect(record.sources.flatMap((ref) => (ref.document ? [ref.document] : []))).toEqual([{ resourceType: "DocumentReference", resourceId: "ccd-summary" }]);
    }
    // The document's other sections (immunizations, results, vital signs, procedures) are not shared: not stored.
    const stored = await db().record.findMany({ where: { subjectId, deletedAt: null }, select: { category: true, updatedAt: true } });
    expect(new Set(stored.map((record) => record.category))).toEqual(new Set(SHARED));

    // The same import again writes nothing.
    const second = await importSource(source.id);
    expect(second.outcome).toMatchObject({ upserts: 0, deletes: 0 });
    const again = await db().record.findMany({ where: { subjectId, deletedAt: null }, select: { category: true, updatedAt: true } });
    expect(again).toEqual(expect.arrayContaining(stored));
    expect(again).toHaveLength(stored.length);
  });
});
