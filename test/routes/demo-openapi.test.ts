import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { callApi } from "@/test/route-calls";
import { DEMO_DOCUMENT_OPERATIONS, getDemoOpenApi } from "@/lib/openapi";
import { DEMO_ROUTES } from "@/lib/routes";

describe("demo OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(getDemoOpenApi());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents exactly the operations /demo/v1 serves", () => {
    expect(new Set(DEMO_ROUTES.operations)).toEqual(new Set(DEMO_DOCUMENT_OPERATIONS));
    expect(Object.keys(getDemoOpenApi().paths).sort()).toEqual(
      [
        "/",
        "/health",
        "/providers",
        "/scenarios",
        "/scenarios/{scenarioId}",
        "/connect/sessions",
        "/patients",
        "/patients/{patientId}",
        "/patients/{patientId}/records",
        "/users/{subject}/records",
        "/fhir/metadata",
        "/fhir/{resourceType}",
        "/fhir/{resourceType}/{resourceId}",
        "/openapi.json",
        "/mcp",
      ].sort(),
    );
  });

  it("shares the record schemas as components and lists the demo error codes", () => {
    const doc = getDemoOpenApi();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["LabRecord", "MedicationRecord", "ErrorEnvelope", "DemoHealthRecord"]));
    const records = doc.paths["/users/{subject}/records"]?.get;
    expect(records?.responses["400"]?.["x-error-codes"]).toEqual(["invalid_categories", "invalid_query"]);
    expect(records?.responses["403"]?.["x-error-codes"]).toEqual(["consent_scope_exceeded"]);
    expect(records?.responses["410"]?.["x-error-codes"]).toEqual(["consent_inactive"]);
    expect(records?.responses["429"]?.headers).toHaveProperty("Retry-After");
    expect(doc.security).toBeUndefined();
    // Keyless, declared so: every operation says it needs no credentials.
    for (const item of Object.values(doc.paths)) for (const operation of Object.values(item)) expect(operation.security).toEqual([]);
  });

  it("is served at GET /demo/v1/openapi.json", async () => {
    const call = await callApi("/demo/v1/openapi.json");
    expect(call.status).toBe(200);
    expect(call.body).toEqual(JSON.parse(JSON.stringify(getDemoOpenApi())));
  });
});
