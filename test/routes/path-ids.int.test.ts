import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { OperationDeclaration } from "@/lib/api";
import { db } from "@/lib/db";
import { EHR_OPERATIONS } from "@/lib/ehr";
import { flushRequestLog, HEADER, SERVICE_VERSION } from "@/lib/http";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS } from "@/lib/openapi";
import { createTestApplication } from "@/test/factories";
import { startPlatformServer } from "@/test/platform-server";
import { send } from "@/test/raw-http";
import { serveRouteFiles } from "@/test/route-server";

// Every operation with a path parameter, generated from the declarations (a new operation cannot skip this), asked
// with hostile values in each parameter over real HTTP: a NUL byte (PostgreSQL refuses 0x00 in text), a valid id
// with a NUL after it, another prefix, a long string. None may reach a query: ids answer 404 in the envelope, any
// other parameter a 4xx, never a 5xx.

const FAMILIES: { prefix: string; operations: readonly OperationDeclaration[] }[] = [
  { prefix: "/api/v1", operations: PLATFORM_OPERATIONS },
  { prefix: "/demo/v1", operations: DEMO_DOCUMENT_OPERATIONS },
  { prefix: "/ehr", operations: EHR_OPERATIONS },
];
const ID_EXAMPLE = /^[a-z]+_[0-9A-Za-z]{24}$/;

type ParamDoc = { pattern?: string; example?: string; enum?: unknown[] };

function paramDocs(operation: OperationDeclaration): Record<string, ParamDoc> {
  if (!operation.params) return {};
  return (z.toJSONSchema(operation.params, { io: "input" }) as { properties: Record<string, ParamDoc> }).properties;
}

const withParams = FAMILIES.flatMap(({ prefix, operations }) =>
  operations.filter((operation) => operation.path.includes("{")).map((operation) => ({ prefix, operation, docs: paramDocs(operation) })),
);

let platformPort: number;
let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let closePlatform: () => Promise<void>;
let key: string;

beforeAll(async () => {
  ({ port: platformPort, close: closePlatform } = await startPlatformServer());
  ehr = await serveRouteFiles("ehr");
  key = (await createTestApplication()).sandboxKey;
});
afterAll(async () => {
  await closePlatform();
  await ehr.close();
});

function target(prefix: string, operation: OperationDeclaration, docs: Record<string, ParamDoc>, name: string, value: string): string {
  return prefix + operation.path.replace(/\{(\w+)\}/g, (_, param: string) => (param === name ? value : encodeURIComponent(docs[param]?.example ?? "x")));
}

describe("path parameters", () => {
  it("finds the operations with path ids of every family", () => {
    expect(withParams.filter(({ prefix }) => prefix === "/api/v1").length).toBeGreaterThanOrEqual(10);
    expect(withParams.some(({ prefix }) => prefix === "/demo/v1")).toBe(true);
    expect(withParams.some(({ prefix }) => prefix === "/ehr")).toBe(true);
  });

  it("every /api/v1 path parameter that takes one of our ids is declared with its format (pathId), so parsing refuses malformed ones", () => {
    // The demo's subjects look alike but are fixed fictional data that no query reads.
    const undeclared = withParams.filter(({ prefix }) => prefix === "/api/v1").flatMap(({ operation, docs }) =>
      Object.entries(docs)
        .filter(([, doc]) => ID_EXAMPLE.test(doc.example ?? "") && !doc.pattern)
        .map(([name]) => `${operation.operationId}.${name}`),
    );
    expect(undeclared).toEqual([]);
    const declared = withParams.flatMap(({ docs }) => Object.values(docs).filter((doc) => doc.pattern));
    expect(declared.length).toBeGreaterThanOrEqual(10);
    for (const doc of declared) expect(doc.example).toMatch(new RegExp(doc.pattern!));
  });

  for (const { prefix, operation, docs } of withParams) {
    for (const [name, doc] of Object.entries(docs)) {
      it(`${operation.method} ${prefix}${operation.path}: hostile ${name} values never reach a query`, async () => {
        const values = ["%00", `${encodeURIComponent(doc.example ?? "x")}%00`, "a%00b", "x".repeat(300)];
        // Another of our ids, well formed but of the wrong kind, names nothing here either.
        if (doc.pattern) values.push(doc.pattern.startsWith("^u_") ? "cs_7Hk2Pq9Xm4Lw1Rt8Nb5Vc3Dz" : "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd");
        const notFound = operation.errors.includes("session_not_found") ? "session_not_found" : "not_found";
        for (const value of values) {
          const port = prefix === "/ehr" ? ehr.port : platformPort;
          const response = await send(port, {
            method: operation.method,
            path: target(prefix, operation, docs, name, value),
            headers: { Authorization: `Bearer ${key}`, ...(operation.body ? { "Content-Type": "application/json" } : {}) },
            body: operation.body ? "{}" : undefined,
          });
          const what = `${operation.method} ${name}=${value.slice(0, 40)}: ${response.status} ${response.body.slice(0, 300)}`;
          expect(response.status, what).toBeGreaterThanOrEqual(400);
          expect(response.status, what).toBeLessThan(500);
          if (!doc.pattern) continue;
          expect(response.status, what).toBe(404);
          // The FHIR API's errors are OperationOutcome resources carrying the code in issue.details.
          const answered = JSON.parse(response.body) as { error?: { code: string }; issue?: { details?: { coding?: { code?: string }[] } }[] };
          expect(answered.error?.code ?? answered.issue?.[0]?.details?.coding?.[0]?.code, what).toBe(notFound);
          expect(response.headers[HEADER.serviceVersion.toLowerCase()]).toBe(SERVICE_VERSION);
          expect(response.headers[HEADER.requestId.toLowerCase()]).toMatch(/^req_/);
        }
      });
    }
  }

  it("a request naming a malformed subject is still written to the request log (without the subject)", async () => {
    const response = await send(platformPort, { path: "/api/v1/users/%00/records", headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(404);
    await flushRequestLog();
    const requestId = response.headers[HEADER.requestId.toLowerCase()] as string;
    expect(await db().requestLog.findFirst({ where: { requestId }, select: { status: true, subjectId: true, errorCode: true } })).toEqual({
      status: 404,
      subjectId: null,
      errorCode: "not_found",
    });
  });
});
