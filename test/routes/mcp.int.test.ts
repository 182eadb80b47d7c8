import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { consumeRateLimit, flushRequestLog, KEY_POLICY } from "@/lib/http";
import { PLATFORM_TOOLS } from "@/lib/mcp";
import { subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";
import { sharingSubject } from "@/test/records";

// The authenticated MCP server over real HTTP, with the official SDK client and the MCP Inspector's CLI: every tool
// answers exactly as its REST twin.

let origin: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
});
afterAll(() => close());

const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((client) => client.close())));

async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: "chartkey-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/api/v1/mcp`), {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** An error envelope without its request id, which differs between any two requests. */
function envelope(body: unknown) {
  const { error } = body as { error: { requestId: string } };
  return { error: { ...error, requestId: expect.stringMatching(/^req_/) } };
}

/** A tool error's envelope: the result's text (structured content is for answers matching the output schema). */
function errorOf(result: CallToolResult): unknown {
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse((result.content[0] as { text: string }).text);
}

/** A session without the fields that differ between two sessions created alike. */
function sessionShape(body: unknown) {
  return { ...(body as Record<string, unknown>), id: null, connectUrl: null, createdAt: null, expiresAt: null };
}

describe("the authenticated MCP server at /api/v1/mcp", () => {
  it("lists the spec's fourteen tools and search_fhir (issue 52) with schemas from the declarations and read-only or destructive hints", async () => {
    const { sandboxKey } = await createTestApplication();
    const client = await connect(sandboxKey);
    expect(client.getServerVersion()).toMatchObject({ name: "chartkey" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "get_app",
      "list_users",
      "get_health_record",
      "get_category_records",
      "get_record_changes",
      "get_consent_receipt",
      "search_fhir",
      "create_connect_session",
      "get_connect_session",
      "cancel_connect_session",
      "simulate_connect_session",
      "trigger_sandbox_event",
      "start_conformance_run",
      "get_conformance_run",
      "advance_conformance_run",
    ]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.get_category_records!.inputSchema).toMatchObject({
      type: "object",
      properties: { subject: { type: "string" }, category: { type: "string" }, limit: expect.any(Object), cursor: { type: "string" } },
      required: ["subject", "category"],
      additionalProperties: false,
    });
    expect(byName.create_connect_session!.inputSchema).toMatchObject({ properties: { categories: { type: "array" }, consentDays: { type: "integer" } }, required: ["categories"] });
    expect(byName.get_health_record!.outputSchema).toMatchObject({ type: "object", required: expect.arrayContaining(["subject", "sections", "meta"]) });
    expect(byName.get_health_record!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.cancel_connect_session!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.create_connect_session!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // A path parameter is a tool input like any other, required as the path requires it.
    expect(byName.get_conformance_run!.inputSchema).toMatchObject({ properties: { runId: { type: "string" } }, required: ["runId"] });
    expect(byName.get_conformance_run!.description).toContain("GET /conformance/runs/{runId}");
  });

  it("answers every record tool exactly as its REST twin, as structured content matching the output schema", async () => {
    const { sandboxKey, subject, receipt } = await sharingSubject();
    const client = await connect(sandboxKey);
    // Listed first, as clients do: the SDK client then checks every structured result against the output schema.
    await client.listTools();
    const rest = (pathname: string) => request(origin, "GET", `/api/v1${pathname}`, { token: sandboxKey });
    const same = async (name: string, args: Record<string, unknown>, pathname: string, ignore: (body: Record<string, unknown>) => unknown = (body) => body) => {
      const result = await call(client, name, args);
      const twin = await rest(pathname);
      expect(twin.status, pathname).toBe(200);
      expect(result.isError, name).toBeFalsy();
      expect(ignore(result.structuredContent as Record<string, unknown>), name).toEqual(ignore(twin.body));
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
      return result.structuredContent as Record<string, unknown>;
    };
    await same("get_app", {}, "/app");
    await same("list_users", { limit: "5" }, "/users?limit=5");
    await same("get_health_record", { subject: subject.id, categories: "labs,medications" }, `/users/${subject.id}/records?categories=labs,medications`, (body) => ({ ...body, meta: null }));
    const page = await same("get_category_records", { subject: subject.id, category: "labs", limit: "2" }, `/users/${subject.id}/records/labs?limit=2`);
    const cursor = (page.meta as { changeCursor: string }).changeCursor;
    await same("get_record_changes", { subject: subject.id, category: "labs", cursor }, `/users/${subject.id}/records/labs/changes?cursor=${cursor}`);
    await same("get_consent_receipt", { receiptId: receipt.id }, `/consents/${receipt.id}`);
    const patient = subject.id.replace("u_", "u-");
    const fhir = await same("search_fhir", { resourceType: "Condition", patient, _count: "2" }, `/fhir/Condition?patient=${patient}&_count=2`);
    expect(fhir).toMatchObject({ resourceType: "Bundle", type: "searchset" });
  });

  it("answers the Connect and sandbox tools as their REST twins, writes included", async () => {
    const { sandboxKey, subject } = await sharingSubject({ facts: false });
    const client = await connect(sandboxKey);
    await client.listTools();
    const post = (pathname: string, body?: unknown) => request(origin, "POST", `/api/v1${pathname}`, { token: sandboxKey, body });

    const created = await call(client, "create_connect_session", { categories: ["labs"], externalUserId: "agent-user" });
    const twin = await post("/connect/sessions", { categories: ["labs"], externalUserId: "agent-user" });
    expect(created.isError).toBeFalsy();
    expect(sessionShape(created.structuredContent)).toEqual(sessionShape(twin.body));
    const sessionId = (created.structuredContent as { id: string }).id;
    const fetched = await call(client, "get_connect_session", { sessionId });
    expect(fetched.structuredContent).toEqual((await request(origin, "GET", `/api/v1/connect/sessions/${sessionId}`, { token: sandboxKey })).body);

    const simulated = await call(client, "simulate_connect_session", { sessionId, scenario: "baseline-adult" });
    const simulatedTwin = await post(`/connect/sessions/${twin.body.id as string}/simulate`, { scenario: "baseline-adult" });
    expect(simulatedTwin.status).toBe(200);
    expect(sessionShape(simulated.structuredContent)).toEqual(sessionShape(simulatedTwin.body));

    const other = await post("/connect/sessions", { categories: ["labs"] });
    const cancelled = await call(client, "cancel_connect_session", { sessionId: other.body.id });
    expect(cancelled.structuredContent).toMatchObject({ id: other.body.id, status: "cancelled" });
    expect(cancelled.structuredContent).toEqual((await request(origin, "GET", `/api/v1/connect/sessions/${other.body.id as string}`, { token: sandboxKey })).body);

    // A subject no simulation created: both answer 404 not_found.
    const event = await call(client, "trigger_sandbox_event", { subject: subject.id, type: "consent.revoke" });
    const eventTwin = await post(`/sandbox/subjects/${subject.id}/events`, { type: "consent.revoke" });
    expect(eventTwin.status).toBe(404);
    expect(event.isError).toBe(true);
    expect(errorOf(event)).toEqual(envelope(eventTwin.body));
  });

  it("answers a tool's errors as tool results with the spec's envelope: validation, scope, and the conformance refusals", async () => {
    const { sandboxKey, subject } = await sharingSubject({ allowlist: ["labs"], granted: ["labs"], facts: false });
    const client = await connect(sandboxKey);
    // Listed first, as clients do: the SDK client then checks every structured result against the output schema.
    await client.listTools();
    const cases: [string, Record<string, unknown>, string, string, unknown?][] = [
      ["get_category_records", { subject: subject.id, category: "claims" }, "GET", `/users/${subject.id}/records/claims`],
      ["get_category_records", { subject: subject.id, category: "labs", limit: "500" }, "GET", `/users/${subject.id}/records/labs?limit=500`],
      ["get_health_record", { subject: "u_unknown" }, "GET", "/users/u_unknown/records"],
      ["create_connect_session", { categories: ["labs"], colour: "blue" }, "POST", "/connect/sessions", { categories: ["labs"], colour: "blue" }],
      // Conformance runs refuse an unknown scenario (400 invalid_scenario) and a run id that names nothing (404).
      ["start_conformance_run", { scenario: "no-such-scenario" }, "POST", "/conformance/runs", { scenario: "no-such-scenario" }],
      ["get_conformance_run", { runId: "run_x" }, "GET", "/conformance/runs/run_x"],
      ["advance_conformance_run", { runId: "run_x" }, "POST", "/conformance/runs/run_x/advance", {}],
    ];
    for (const [name, args, method, pathname, body] of cases) {
      const result = await call(client, name, args);
      const twin = await request(origin, method, `/api/v1${pathname}`, { token: sandboxKey, body });
      expect(twin.status, pathname).toBeGreaterThanOrEqual(400);
      expect([name, result.isError, errorOf(result)]).toEqual([name, true, envelope(twin.body)]);
    }
  });

  it("counts each tool call as a request of the key, in the request log under the REST operation", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const client = await connect(sandboxKey);
    await call(client, "get_app");
    await flushRequestLog();
    const routes = (await db().requestLog.findMany({ where: { apiKeyId: sandboxKeyId }, orderBy: { id: "asc" } })).map((row) => row.route);
    expect(routes).toContain("GET /app");
    expect(routes).toContain("POST /mcp");
  });

  it("fails the whole request with a JSON-RPC error and HTTP 401 for a missing or bad key, or a delegated credential", async () => {
    const { credential } = await subjectWithCredential(origin);
    for (const [token, code] of [
      [null, "missing_api_key"],
      [`ck_test_${"x".repeat(43)}`, "invalid_api_key"],
      [credential.token, "invalid_agent_token"],
    ] as const) {
      await expect(connect(token)).rejects.toMatchObject({ code: 401, message: expect.stringContaining(code) });
      const answer = await mcpPost(token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001, data: { error: { code } } } });
    }
  });

  it("fails the whole request with HTTP 429 and Retry-After when the key is over its limit", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    for (let used = 0; used < KEY_POLICY.points; used++) await consumeRateLimit(KEY_POLICY, sandboxKeyId);
    const answer = await mcpPost(sandboxKey, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answer.body).toMatchObject({ jsonrpc: "2.0", error: { data: { error: { code: "rate_limited" } } } });
  });

  it("is listed by the MCP Inspector's CLI with the same tools", async () => {
    const { sandboxKey } = await createTestApplication();
    const cli = path.join(process.cwd(), "node_modules", ".bin", "mcp-inspector-cli");
    const { stdout } = await promisify(execFile)(cli, ["--cli", `${origin}/api/v1/mcp`, "--transport", "http", "--method", "tools/list", "--header", `Authorization: Bearer ${sandboxKey}`], {
      timeout: 30_000,
    });
    const listed = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(PLATFORM_TOOLS.tools.map((tool) => tool.name));
  });
});

async function mcpPost(token: string | null, message: unknown) {
  const response = await fetch(`${origin}/api/v1/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(message),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}
