import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "@/lib/http";
import type { CodeSample } from "./reference-document";
import { referenceDocument } from "./reference-document";
import type { OpenApiOperation } from "./document-types";

const operationsOf = (key: "platform" | "demo") =>
  Object.values(referenceDocument(key).paths).flatMap((item) => Object.values(item) as (OpenApiOperation & { "x-codeSamples"?: CodeSample[] })[]);

describe("the documents the /docs reference renders", () => {
  it("list every error code their operations answer, with its status, in the description", () => {
    for (const key of ["platform", "demo"] as const) {
      const description = referenceDocument(key).info.description;
      const codes = new Set(operationsOf(key).flatMap((operation) => Object.values(operation.responses).flatMap((response) => response["x-error-codes"] ?? [])));
      expect(codes.size).toBeGreaterThan(5);
      for (const code of codes) expect(description, code).toContain(`| \`${code}\` | ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]} |`);
    }
  });

  it("give every keyed operation an @chartkey/sdk sample first (test/docs-samples.test.ts type-checks them), then curl, Python and Go", () => {
    const labels = (operation: OpenApiOperation & { "x-codeSamples"?: CodeSample[] }) => operation["x-codeSamples"]?.map((sample) => sample.label);
    for (const operation of operationsOf("platform")) expect(labels(operation), operation.operationId).toEqual(["@chartkey/sdk", "curl", "Python (requests)", "Go (net/http)"]);
    // The demo has no SDK helpers: plain HTTP only, and no key.
    for (const operation of operationsOf("demo")) expect(labels(operation), operation.operationId).toEqual(["curl", "Python (requests)", "Go (net/http)"]);
    expect(operationsOf("demo").flatMap((operation) => operation["x-codeSamples"]!).some((sample) => sample.source.includes("CK_SANDBOX_KEY"))).toBe(false);
  });

  it("write each plain-HTTP sample with the operation's method, filled path, query, key and body", () => {
    const document = referenceDocument("platform");
    const create = document.paths["/connect/sessions"]!.post! as OpenApiOperation & { "x-codeSamples": CodeSample[] };
    const [, curl, python, go] = create["x-codeSamples"].map((sample) => sample.source);
    expect(curl).toContain("curl -X POST 'http://localhost:3000/api/v1/connect/sessions'");
    expect(curl).toContain('-H "Authorization: Bearer $CK_SANDBOX_KEY"');
    expect(curl).toMatch(/-d '\{"categories":\[.*"medications".*\]\}'/);
    expect(python).toContain('"POST"');
    expect(python).toContain("json={");
    expect(go).toContain('http.NewRequest("POST", "http://localhost:3000/api/v1/connect/sessions", strings.NewReader(');
    expect(go).toContain('req.Header.Set("Content-Type", "application/json")');
    // An operation that needs no key sends none; path parameters take their examples.
    const health = document.paths["/health"]!.get! as OpenApiOperation & { "x-codeSamples": CodeSample[] };
    expect(health["x-codeSamples"][1]!.source).toBe("curl 'http://localhost:3000/api/v1/health'");
    const changes = document.paths["/users/{subject}/records/{category}/changes"]!.get! as OpenApiOperation & { "x-codeSamples": CodeSample[] };
    expect(changes["x-codeSamples"][1]!.source).toMatch(/^curl 'http:\/\/localhost:3000\/api\/v1\/users\/u_\w+\/records\/labs\/changes/);
  });
});
