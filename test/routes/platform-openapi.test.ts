import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { applicationSchema, getApp } from "@/lib/applications";
import type { KeyAuth } from "@/lib/auth";
import { getPlatformOpenApi } from "@/lib/openapi";
import { dispatchApiRequest } from "@/lib/routes";

describe("platform OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(getPlatformOpenApi());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes GET /health without auth and GET /app with bearer auth and its error codes", () => {
    const doc = getPlatformOpenApi() as {
      security: unknown;
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, { "x-error-codes"?: string[] }> }>>;
    };
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths["/health"]?.get?.security).toEqual([]);
    const app = doc.paths["/app"]?.get;
    expect(app?.security).toBeUndefined();
    expect(app?.responses["401"]?.["x-error-codes"]).toEqual(["missing_api_key", "invalid_api_key", "invalid_agent_token"]);
    expect(app?.responses["200"]).toMatchObject({ headers: { "Service-Version": { $ref: "#/components/headers/Service-Version" } } });
  });

  it("describes issuing and revoking delegated credentials with examples and their error codes", () => {
    const doc = getPlatformOpenApi() as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { "x-error-codes"?: string[]; content?: Record<string, { example?: unknown }> }> }>>;
    };
    const issue = doc.paths["/agent-credentials"]?.post;
    expect(issue?.requestBody?.content["application/json"]?.example).toMatchObject({ subject: expect.stringMatching(/^u_/), durationSeconds: 900 });
    expect(issue?.responses["201"]?.content?.["application/json"]?.example).toMatchObject({ id: expect.stringMatching(/^cred_/), token: expect.stringMatching(/^ck_agent_/) });
    expect(issue?.responses["400"]?.["x-error-codes"]).toEqual(expect.arrayContaining(["invalid_grant", "invalid_duration"]));
    expect(issue?.responses["403"]?.["x-error-codes"]).toEqual(expect.arrayContaining(["operation_forbidden"]));
    expect(issue?.responses["413"]).toBeDefined();
    const revoke = doc.paths["/agent-credentials/{credentialId}"]?.delete;
    expect(revoke?.responses["200"]?.content?.["application/json"]?.example).toMatchObject({ revokedAt: expect.any(String) });
    expect(revoke?.responses["404"]?.["x-error-codes"]).toEqual(["not_found"]);
    const read = doc.paths["/users/{subject}/records"]?.get;
    expect(read?.responses["403"]?.["x-error-codes"]).toEqual(expect.arrayContaining(["credential_scope_exceeded", "subject_mismatch", "authority_changed"]));
    expect(read?.responses["503"]?.["x-error-codes"]).toEqual(expect.arrayContaining(["authority_unavailable"]));
  });

  it("documents the shape GET /app really returns", () => {
    const auth: KeyAuth = {
      kind: "key",
      apiKeyId: "key_1",
      environment: "sandbox",
      conformanceRunId: null,
      application: {
        id: "app_1",
        name: "Example",
        status: "sandbox",
        productionEnabled: false,
        categoryAllowlist: ["labs", "medications"],
        syncMode: "one_time",
      },
    };
    // Strict: a field the document does not declare (a leak) fails, as well as a declared one missing or mistyped.
    expect(z.strictObject(applicationSchema.shape).safeParse(getApp(auth)).error?.issues).toBeUndefined();
  });

  it("is served at GET /api/v1/openapi.json with Service-Version", async () => {
    const response = await dispatchApiRequest(new Request("http://localhost/api/v1/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("service-version")).toBe("2026-09-22");
    expect(((await response.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });
});
