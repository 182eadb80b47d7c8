import { describe, expect, it } from "vitest";
import { PROVIDERS, SCENARIOS } from "@/lib/sandbox";
import { DATA_NOTICE, demoHealthSchema, demoIndexSchema, patientListSchema, patientResponseSchema, patientScenarios, providerListSchema, scenarioListSchema, scenarioResponseSchema } from "@/lib/demo";
import { callApi, errorCode, type DemoCall } from "@/test/route-calls";

function expectDemoHeaders(call: DemoCall) {
  expect(call.headers.get("x-data-notice")).toBe(DATA_NOTICE);
  expect(call.headers.get("request-id")).toMatch(/^req_/);
  expect(call.headers.get("ratelimit-policy")).toBe('"demo";q=120;w=60');
}

describe("demo index, health and providers", () => {
  it("GET / links every part of the demo and the default scenario's records", async () => {
    const call = await callApi("/demo/v1");
    expect(call.status).toBe(200);
    expectDemoHeaders(call);
    expect(call.headers.get("cache-control")).toBe("public, max-age=60");
    const body = demoIndexSchema.parse(call.body);
    expect(body.notice).toBe(DATA_NOTICE);
    expect(body.default_scenario).toBe("baseline-adult");
    expect(body.links).toMatchObject({
      scenarios: "/demo/v1/scenarios",
      patients: "/demo/v1/patients",
      openapi: "/demo/v1/openapi.json",
      default_records: `/demo/v1/users/${SCENARIOS[0]?.subject}/records`,
    });
  });

  it("GET /health is ok and not cached", async () => {
    const call = await callApi("/demo/v1/health");
    expect(call.status).toBe(200);
    expect(demoHealthSchema.parse(call.body).status).toBe("ok");
    expect(call.headers.get("cache-control")).toBe("no-store");
    expectDemoHeaders(call);
  });

  it("GET /providers lists every fictional provider", async () => {
    const call = await callApi("/demo/v1/providers");
    const body = providerListSchema.parse(call.body);
    expect(body.data.map((provider) => provider.id)).toEqual(PROVIDERS.map((provider) => provider.id));
    expect(body.hasMore).toBe(false);
  });
});

describe("scenario manifest", () => {
  it("GET /scenarios lists the manifest in order, with links and without clinical data", async () => {
    const call = await callApi("/demo/v1/scenarios");
    expect(call.status).toBe(200);
    const body = scenarioListSchema.parse(call.body);
    expect(body.data.map((entry) => entry.id)).toEqual(SCENARIOS.map((entry) => entry.id));
    expect(body.data[0]?.id).toBe("baseline-adult");
    for (const required of ["baseline-adult", "multi-source-overlap", "source-unavailable", "consent-revoked", "consent-partial", "rate-limited", "connect-cancelled", "connect-failed"]) {
      expect(body.data.map((entry) => entry.id)).toContain(required);
    }
    const serialized = JSON.stringify(body);
    expect(serialized).not.toContain("resourceType");
    expect(body.data.find((entry) => entry.id === "consent-partial")?.consent_categories).toEqual(["medications", "allergies"]);
  });

  it("GET /scenarios/{scenarioId} returns one entry with links", async () => {
    const baseline = SCENARIOS[0]!;
    const call = await callApi("/demo/v1/scenarios/baseline-adult");
    expect(call.status).toBe(200);
    const body = scenarioResponseSchema.parse(call.body);
    expect(body.subject).toBe(baseline.subject);
    expect(body.links).toMatchObject({
      self: "/demo/v1/scenarios/baseline-adult",
      records: `/demo/v1/users/${baseline.subject}/records`,
      fhir_bundle: `/demo/v1/fhir/Bundle/${baseline.bundleId}`,
    });
    const failed = await callApi("/demo/v1/scenarios/connect-failed");
    expect(scenarioResponseSchema.parse(failed.body).session_outcome).toEqual({ status: "failed", failure_code: "source_unavailable" });
  });

  it("GET /scenarios/{scenarioId} answers 404 not_found for an unknown scenario", async () => {
    const call = await callApi("/demo/v1/scenarios/nope");
    expect(call.status).toBe(404);
    expect(errorCode(call)).toBe("not_found");
    expect(call.headers.get("cache-control")).toBe("no-store");
    expectDemoHeaders(call);
  });
});

describe("synthetic patients", () => {
  it("GET /patients lists one patient per scenario that has one, in manifest order", async () => {
    const call = await callApi("/demo/v1/patients");
    const body = patientListSchema.parse(call.body);
    const expected = SCENARIOS.filter((entry) => entry.patientId !== null).map((entry) => entry.patientId);
    expect(body.data.map((entry) => entry.patient_id)).toEqual(expected);
    expect(body.data.every((entry) => entry.name !== null)).toBe(true);
  });

  it("GET /patients/{patientId} returns the patient and 404 for an unknown one", async () => {
    for (const entry of patientScenarios()) {
      const call = await callApi(`/demo/v1/patients/${entry.patientId}`);
      expect(call.status).toBe(200);
      expect(patientResponseSchema.parse(call.body)).toMatchObject({ subject: entry.subject, scenario: entry.id });
    }
    const missing = await callApi("/demo/v1/patients/nobody");
    expect(missing.status).toBe(404);
    expect(errorCode(missing)).toBe("not_found");
  });
});

describe("unknown paths and methods", () => {
  it("answer 404 not_found in the envelope, with the notice", async () => {
    const call = await callApi("/demo/v1/nowhere/at/all");
    expect(call.status).toBe(404);
    expect(call.body).toEqual({
      error: { type: "invalid_request_error", code: "not_found", message: expect.any(String), requestId: call.headers.get("request-id") },
    });
    expectDemoHeaders(call);
    expect((await callApi("/demo/v1/x", { method: "POST" })).status).toBe(404);
  });

  it("answer an unsupported method on a known path with 404 and Allow", async () => {
    const call = await callApi("/demo/v1/scenarios", { method: "DELETE" });
    expect(call.status).toBe(404);
    expect(errorCode(call)).toBe("not_found");
    expect(call.headers.get("allow")).toBe("GET");
  });
});
