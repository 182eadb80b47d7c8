import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/demo/v1/openapi.json/route";
import { callDemo } from "@/test/route-calls";
import { DEMO_DOCUMENT_OPERATIONS, demoOpenApiDocument } from "@/lib/openapi";

/** The App Router folder that serves an OpenAPI path template: `/users/{subject}/records` -> users/[subject]/records. */
function routeFile(template: string): string {
  const folder = template.replace(/\{(\w+)\}/g, "[$1]");
  return path.join(process.cwd(), "app/demo/v1", folder, "route.ts");
}

describe("demo OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(demoOpenApiDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents exactly the routes app/demo/v1 serves", () => {
    for (const operation of DEMO_DOCUMENT_OPERATIONS) expect(fs.existsSync(routeFile(operation.path)), operation.path).toBe(true);
    expect(Object.keys(demoOpenApiDocument().paths).sort()).toEqual(
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
    const doc = demoOpenApiDocument();
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
    const call = await callDemo(GET, "/demo/v1/openapi.json");
    expect(call.status).toBe(200);
    expect(call.body).toEqual(JSON.parse(JSON.stringify(demoOpenApiDocument())));
  });
});
