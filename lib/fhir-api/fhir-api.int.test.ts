import type { OperationOutcome } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { revokeReceipt } from "@/lib/consent";
import { issueCredential } from "@/test/agents";
import { fhirApiForFile } from "@/test/fhir-api-client";
import { importScenario, sharingSubject } from "@/test/records";

const api = fhirApiForFile();
const get = api.get;

/** A subject sharing `granted`, the baseline scenario imported with its FHIR resources. */
async function subject(granted: Parameters<typeof sharingSubject>[0] = {}) {
  const sharing = await sharingSubject({ ...granted, facts: false });
  await importScenario(sharing.subject.id);
  return { ...sharing, patient: sharing.subject.id.replace("u_", "u-") };
}

const errorCode = (outcome: Pick<OperationOutcome, "issue">) => outcome.issue[0]?.details?.coding?.[0]?.code;

describe("/api/v1/fhir (issue 52, point 2)", () => {
  it("serves metadata, the Patient, searches with total and next links whose cursors refuse edits, reads and $everything, in application/fhir+json with the platform's headers", async () => {
    const { sandboxKey, patient } = await subject();
    const metadata = await get("metadata", sandboxKey);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("content-type")).toContain("application/fhir+json");
    expect(metadata.headers.get("service-version")).toBeTruthy();
    expect(metadata.headers.get("request-id")).toMatch(/^req_/);
    expect(metadata.body).toMatchObject({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1", instantiates: ["http://hl7.org/fhir/us/core/CapabilityStatement/us-core-server", "http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data"] });

    const read = await get(`Patient/${patient}`, sandboxKey);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ resourceType: "Patient", id: patient, meta: { versionId: "1" } });

    const first = await get(`Observation?patient=${patient}&_count=5&category=laboratory`, sandboxKey);
    expect(first.status).toBe(200);
    expect(first.body.total).toBeGreaterThan(5);
    expect(first.body.entry).toHaveLength(5);
    const next = first.body.link!.find((link) => link.relation === "next")!.url;
    const seen = new Set(first.body.entry!.map((entry) => entry.resource!.id));
    let url: string | undefined = next;
    while (url) {
      const page = await get(url.slice(url.indexOf("/fhir/") + 6), sandboxKey);
      for (const entry of page.body.entry ?? []) seen.add(entry.resource!.id);
      url = page.body.link!.find((link) => link.relation === "next")?.url;
    }
    expect(seen.size).toBe(first.body.total);
    const edited = new URL(next);
    edited.searchParams.set("category", "vital-signs");
    const refused = await get(`Observation${edited.search}`, sandboxKey);
    expect(refused.status).toBe(400);
    expect(errorCode(refused.body)).toBe("invalid_cursor");

    const one = first.body.entry![0]!.resource!;
    const byId = await get(`Observation/${one.id}`, sandboxKey);
    expect(byId.body).toEqual(one);
    const included = await get(`Observation?patient=${patient}&_id=${one.id}&_include=Observation:patient`, sandboxKey);
    expect(included.body.entry!.map((entry) => [entry.resource!.resourceType, entry.search!.mode])).toEqual([["Observation", "match"], ["Patient", "include"]]);

    const everything = await get(`Patient/${patient}/$everything?_count=200`, sandboxKey);
    const types = new Set(everything.body.entry!.map((entry) => entry.resource!.resourceType));
    expect([...types].sort()).toEqual(expect.arrayContaining(["AllergyIntolerance", "Condition", "Encounter", "Immunization", "Observation", "Patient", "Practitioner"]));
    expect(everything.body.total).toBe(everything.body.entry!.length);

    const dated = await get(`Observation?patient=${patient}&date=ge2024-01-01&date=lt2025-01-01&_count=0`, sandboxKey);
    const all = await get(`Observation?patient=${patient}&_count=0`, sandboxKey);
    expect(dated.body.total).toBeLessThan(all.body.total!);
    expect(dated.body.entry ?? []).toEqual([]);
  });

  it("serves nothing the consent does not: a type outside the receipt is an empty Bundle with an OperationOutcome, its read 404; another application's subject and a revoked receipt 404", async () => {
    const partial = await subject({ granted: ["labs", "conditions"] });
    const outside = await get(`AllergyIntolerance?patient=${partial.patient}`, partial.sandboxKey);
    expect(outside.status).toBe(200);
    expect(outside.body.total).toBe(0);
    expect(outside.body.entry!.map((entry) => entry.search!.mode)).toEqual(["outcome"]);
    expect(errorCode(outside.body.entry![0]!.resource as OperationOutcome)).toBe("app_scope_exceeded");
    const vitals = await get(`Observation?patient=${partial.patient}&category=vital-signs`, partial.sandboxKey);
    expect(vitals.body.total).toBe(0);
    expect((await get(`Patient/${partial.patient}`, partial.sandboxKey)).status).toBe(404);

    const full = await subject();
    const allergy = (await get(`AllergyIntolerance?patient=${full.patient}`, full.sandboxKey)).body.entry![0]!.resource!;
    const theirs = await get(`AllergyIntolerance/${allergy.id}`, partial.sandboxKey);
    expect(theirs.status).toBe(404);
    expect(errorCode(theirs.body)).toBe("not_found");
    expect((await get(`Condition?patient=${full.patient}`, partial.sandboxKey)).status).toBe(404);

    await revokeReceipt(full.receipt.id, "patient");
    expect((await get(`AllergyIntolerance/${allergy.id}`, full.sandboxKey)).status).toBe(404);
    expect((await get(`Patient/${full.patient}/$everything`, full.sandboxKey)).status).toBe(404);
  });

  it("lets a delegated credential read only its subject's granted categories", async () => {
    const sharing = await subject({ granted: ["medications", "allergies", "labs", "conditions"] });
    const other = await subject();
    const credential = await issueCredential(api.origin(), sharing.sandboxKey, {
      subject: sharing.subject.id,
      categories: ["labs"],
      purpose: "Trend the A1c",
      durationSeconds: 900,
      operations: ["get_health_record"],
    });
    const labs = await get(`Observation?category=laboratory`, credential.token);
    expect(labs.status).toBe(200);
    expect(labs.body.total).toBeGreaterThan(0);
    const conditions = await get(`Condition?patient=${sharing.patient}`, credential.token);
    expect(errorCode(conditions.body.entry![0]!.resource as OperationOutcome)).toBe("credential_scope_exceeded");
    const elsewhere = await get(`Observation?patient=${other.patient}`, credential.token);
    expect(elsewhere.status).toBe(403);
    expect(errorCode(elsewhere.body)).toBe("subject_mismatch");
    const everything = await get(`Patient/${sharing.patient}/$everything?_count=200`, credential.token);
    expect(new Set(everything.body.entry!.map((entry) => entry.resource!.resourceType))).not.toContain("Condition");
  });
});
