import type { Observation } from "fhir/r4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chartkey, isChartkeyError } from "@chartkey/sdk";
import { startApiServer } from "@/test/api-server";
import { importScenario, sharingSubject } from "@/test/records";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
});
afterAll(async () => server.close());

describe("the SDK's typed FHIR reads (issue 52, point 4)", () => {
  it("searches following next links, reads typed resources, walks $everything and throws the OperationOutcome's code", async () => {
    const { sandboxKey, subject } = await sharingSubject({ granted: ["demographics", "labs", "conditions"], facts: false });
    await importScenario(subject.id);
    const chartkey = new Chartkey({ apiKey: sandboxKey, baseUrl: `${server.origin}/api/v1` });
    const patient = subject.id;

    const observations: Observation[] = [];
    for await (const resource of chartkey.fhir.search("Observation", { patient, category: "laboratory", _count: 3 })) observations.push(resource as Observation);
    const page = await chartkey.fhir.searchPage("Observation", { patient, category: "laboratory", _count: 0 });
    expect(observations.length).toBe(page.total);
    expect(observations.length).toBeGreaterThan(3);

    const read: Observation = await chartkey.fhir.read("Observation", observations[0]!.id!);
    expect(read).toEqual(observations[0]);
    expect((await chartkey.fhir.patient(patient)).resourceType).toBe("Patient");

    const types = new Set<string>();
    for await (const resource of chartkey.fhir.everything(patient, { count: 10 })) types.add(resource.resourceType);
    expect([...types]).toEqual(expect.arrayContaining(["Patient", "Observation", "Condition"]));
    expect(types.has("AllergyIntolerance")).toBe(false);

    const missing = await chartkey.fhir.read("Condition", "rec-000000000000000000000000").catch((error: unknown) => error);
    expect(isChartkeyError(missing, "not_found")).toBe(true);
  });
});
