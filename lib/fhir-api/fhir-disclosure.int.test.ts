import { describe, expect, it } from "vitest";
import { linkToken, linkTokenHash, patientViewByLink } from "@/lib/connect";
import { db } from "@/lib/db";
import { flushRequestLog } from "@/lib/http";
import { fhirApiForFile } from "@/test/fhir-api-client";
import { importScenario, sharingSubject } from "@/test/records";

// FHIR reads are disclosures as JSON reads are: the request log names their subject (the handler names it once the
// read is authorized; no path parameter does for a search or a read by id), and the patient's disclosure history
// counts them. Read over real HTTP through the route pipeline, as an application reads.

const { get } = fhirApiForFile();

async function subject() {
  const sharing = await sharingSubject({ facts: false });
  await importScenario(sharing.subject.id);
  return { ...sharing, patient: sharing.subject.id.replace("u_", "u-") };
}

async function logged(applicationId: string) {
  await flushRequestLog();
  return db().requestLog.findMany({ where: { applicationId }, select: { route: true, subjectId: true, status: true }, orderBy: { createdAt: "asc" } });
}

describe("FHIR reads in the request log and the patient's disclosure history (issue 52)", () => {
  it("names the subject of each FHIR read in the request log, and counts the reads in that subject's history only", async () => {
    const reader = await subject();
    const { sandboxKey, patient, receipt, application } = reader;
    const other = await subject();

    expect((await get(`Patient/${patient}`, sandboxKey)).status).toBe(200);
    const labs = await get(`Observation?patient=${patient}&category=laboratory&_count=5`, sandboxKey);
    expect(labs.status).toBe(200);
    const observation = labs.body.entry![0]!.resource!;
    expect((await get(`Observation/${observation.id}`, sandboxKey)).status).toBe(200);
    expect((await get(`Condition?patient=${reader.subject.id}`, sandboxKey)).status).toBe(200);
    expect((await get(`Encounter?patient=${patient}`, sandboxKey)).status).toBe(200);
    expect((await get(`Patient/${patient}/$everything`, sandboxKey)).status).toBe(200);
    // Refused: the other application's subject, by search and by one of its resources' ids; metadata names no subject.
    expect((await get(`Observation?patient=${other.patient}`, sandboxKey)).status).toBe(404);
    const theirs = await get(`Observation?patient=${other.patient}&_count=1`, other.sandboxKey);
    expect((await get(`Observation/${theirs.body.entry![0]!.resource!.id}`, sandboxKey)).status).toBe(404);
    expect((await get("metadata", sandboxKey)).status).toBe(200);

    expect(await logged(application.id)).toEqual([
      { route: "GET /fhir/Patient/{subject}", subjectId: reader.subject.id, status: 200 },
      { route: "GET /fhir/{resourceType}", subjectId: reader.subject.id, status: 200 },
      { route: "GET /fhir/{resourceType}/{id}", subjectId: reader.subject.id, status: 200 },
      { route: "GET /fhir/{resourceType}", subjectId: reader.subject.id, status: 200 },
      { route: "GET /fhir/{resourceType}", subjectId: reader.subject.id, status: 200 },
      { route: "GET /fhir/Patient/{subject}/$everything", subjectId: reader.subject.id, status: 200 },
      { route: "GET /fhir/{resourceType}", subjectId: null, status: 404 },
      { route: "GET /fhir/{resourceType}/{id}", subjectId: null, status: 404 },
      { route: "GET /fhir/metadata", subjectId: null, status: 200 },
    ]);
    // The other application's own read is logged for its subject, under its application.
    expect(await logged(other.application.id)).toEqual([{ route: "GET /fhir/{resourceType}", subjectId: other.subject.id, status: 200 }]);

    const history = async (receiptId: string) => {
      const token = linkToken("receipt", receiptId);
      await db().consentReceipt.update({ where: { id: receiptId }, data: { patientTokenHash: linkTokenHash(token) } });
      return (await patientViewByLink(token)).history;
    };
    const today = new Date().toISOString().slice(0, 10);
    // Six reads: the Patient (demographics), two Observation reads (an Observation is a lab or a vital sign), the
    // Conditions, the Encounters (a context type: a read of no category) and $everything (the whole record).
    expect((await history(receipt.id)).days).toEqual([
      {
        day: today,
        requests: 6,
        wholeRecordReads: 1,
        categories: [
          { category: "labs", reads: 2 },
          { category: "vitals", reads: 2 },
          { category: "conditions", reads: 1 },
          { category: "demographics", reads: 1 },
        ],
        agentRequests: 0,
      },
    ]);
    // The other subject's history holds its own application's one search, none of the refused reads of it.
    expect((await history(other.receipt.id)).days).toEqual([
      { day: today, requests: 1, wholeRecordReads: 0, categories: [{ category: "labs", reads: 1 }, { category: "vitals", reads: 1 }], agentRequests: 0 },
    ]);
  });
});
