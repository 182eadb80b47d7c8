import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as reportRoute from "@/app/conformance/[[...path]]/route";
import { db } from "@/lib/db";
import { subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { routeContext } from "@/test/factories";
import { send } from "@/test/raw-http";

// Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) in a body, query or path is refused at the parsing
// step every operation goes through: 400 invalid_request naming the field, 404 not_found for a path value, and
// nothing written. Before, a NUL reached PostgreSQL and answered 500 database_error (or 503 for reports).

let origin: string;
let port: number;
let close: () => Promise<void>;
let seeded: Awaited<ReturnType<typeof subjectWithCredential>>;

beforeAll(async () => {
  ({ origin, port, close } = await startApiServer());
  seeded = await subjectWithCredential(origin);
});
afterAll(() => close());

const UNSTORABLE: [string, string][] = [
  ["NUL", "\u0000"],
  ["a lone high surrogate", "\ud800"],
  ["a lone low surrogate", "\udfff"],
];

function expectRefused(answer: { status: number; body: { error?: { code: string; message: string } } }, field: string, character: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request" });
  expect(answer.body.error?.message).toBe(`${field} contains a character that cannot be stored (U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}).`);
}

describe("POST /api/v1/connect/sessions", () => {
  for (const [name, character] of UNSTORABLE) {
    it(`refuses externalUserId holding ${name} with 400 invalid_request, creating nothing`, async () => {
      const before = await db().connectSession.count({ where: { applicationId: seeded.application.id } });
      const answer = await request(origin, "POST", "/api/v1/connect/sessions", {
        token: seeded.sandboxKey,
        body: { categories: ["medications"], externalUserId: `a${character}b` },
      });
      expectRefused(answer, "externalUserId", character);
      expect(await db().connectSession.count({ where: { applicationId: seeded.application.id } })).toBe(before);
    });
  }

  it("keeps nothing under the Idempotency-Key of a refused request: the key then serves a good body", async () => {
    const key = `unstorable-${Date.now()}`;
    const refused = await request(origin, "POST", "/api/v1/connect/sessions", {
      token: seeded.sandboxKey,
      headers: { "Idempotency-Key": key },
      body: { categories: ["medications"], externalUserId: "\u0000" },
    });
    expectRefused(refused, "externalUserId", "\u0000");
    const created = await request(origin, "POST", "/api/v1/connect/sessions", {
      token: seeded.sandboxKey,
      headers: { "Idempotency-Key": key },
      body: { categories: ["medications"], externalUserId: "patient-7" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.externalUserId).toBe("patient-7");
  });

  it("names a string inside an array by its index", async () => {
    const answer = await request(origin, "POST", "/api/v1/connect/sessions", { token: seeded.sandboxKey, body: { categories: ["medications", "\u0000"] } });
    expect(answer.status).toBe(400);
    // The category check may speak first; either way it is a 400, never a 5xx.
    expect(["invalid_request", "invalid_categories"]).toContain(answer.body.error?.code);
  });
});

describe("POST /api/v1/agent-credentials", () => {
  const grant = () => ({ subject: seeded.subject.id, categories: ["medications"], purpose: "Summarize medications", durationSeconds: 60 });

  for (const field of ["purpose", "subject"] as const) {
    for (const [name, character] of UNSTORABLE) {
      it(`refuses ${field} holding ${name} with 400 invalid_request, issuing nothing`, async () => {
        const before = await db().agentCredential.count({ where: { applicationId: seeded.application.id } });
        const body = { ...grant(), [field]: `${grant()[field]}${character}` };
        const answer = await request(origin, "POST", "/api/v1/agent-credentials", { token: seeded.sandboxKey, body });
        expectRefused(answer, field, character);
        expect(await db().agentCredential.count({ where: { applicationId: seeded.application.id } })).toBe(before);
      });
    }
  }
});

describe("query and path values", () => {
  it("refuses a query value holding NUL with 400 invalid_request naming the parameter", async () => {
    const answer = await request(origin, "GET", `/api/v1/users?cursor=%00`, { token: seeded.sandboxKey });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error?.code).toMatch(/^invalid_(request|cursor)$/);
  });

  it("answers a subject holding NUL with 404 not_found", async () => {
    const answer = await request(origin, "GET", `/api/v1/users/u_%00/records`, { token: seeded.sandboxKey });
    expect(answer.status, JSON.stringify(answer.body)).toBe(404);
    expect(answer.body.error?.code).toBe("not_found");
  });

  it("answers a path holding an escaped lone surrogate (not UTF-8) with 400, never a 5xx", async () => {
    const answer = await send(port, { path: "/api/v1/users/%ED%A0%80/records", headers: { Authorization: `Bearer ${seeded.sandboxKey}` } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.code).toBe("invalid_request");
  });
});

describe("GET /conformance/reports/{token}", () => {
  for (const token of ["\u0000", "abc\u0000", "\ud800"]) {
    it(`answers a token holding ${JSON.stringify(token)} with 404 not_found`, async () => {
      const response = await reportRoute.GET(new Request(`http://localhost/conformance/reports/${encodeURIComponent(token.replace(/\p{Cs}/gu, ""))}`), routeContext({ token }));
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    });
  }
});

describe("pages and routes outside the operations", () => {
  it("the report page answers a token holding NUL or a lone surrogate with Next's notFound() (404), not a database error", async () => {
    const { default: ReportPage, generateMetadata } = await import("@/app/reports/[token]/page");
    for (const token of ["\u0000", "abc\u0000", "\ud800"]) {
      const params = Promise.resolve({ token });
      // notFound() throws Next's 404 signal, which the router renders as the not-found page with status 404.
      await expect(ReportPage({ params })).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
      expect(await generateMetadata({ params })).toMatchObject({ title: "Conformance report not found" });
    }
  });

  it("the Security page's audit trail leaves out an actor filter holding NUL or a lone surrogate, and reads an edited cursor holding NUL from the start", async () => {
    const { auditFilterSchema, listAuditEntries } = await import("@/lib/audit");
    for (const actor of ["\u0000", "a\ud800"]) expect(auditFilterSchema.shape.actor.safeParse(actor).success).toBe(false);
    const scope = { applicationId: seeded.application.id };
    const cursor = Buffer.from("2020-01-01T00:00:00.000Z|a\u0000").toString("base64url");
    expect(await listAuditEntries(scope, {}, { cursor })).toEqual(await listAuditEntries(scope, {}));
  });

  it("the Connect callback answers a state holding NUL as unknown (its 400 page), not a database error", async () => {
    const { finishSignIn } = await import("@/lib/connect");
    expect(await finishSignIn("http://localhost/connect/callback?state=%00&code=x", () => true)).toBeNull();
    expect(await finishSignIn("http://localhost/connect/callback?state=a%00b&code=x", () => true)).toBeNull();
  });
});
