import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOOLS } from "@/lib/mcp";
import { request, startApiServer } from "@/test/api-server";

// The keyless demo MCP server over real HTTP with the official SDK client: every tool answers exactly as its demo
// REST route. All requests come from one address (127.0.0.1), so this file spends little of the demo's limit.

let origin: string;
let close: () => Promise<void>;
let client: Client;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
  client = new Client({ name: "chartkey-demo-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/demo/v1/mcp`)));
});
afterAll(async () => {
  await client.close();
  await close();
});

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const demo = (pathname: string) => request(origin, "GET", `/demo/v1${pathname}`);

describe("the demo MCP server at /demo/v1/mcp", () => {
  it("is keyless and read-only: lists its tools with read-only hints and schemas from the demo declarations", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "chartkey-demo" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(DEMO_TOOLS.tools.map((tool) => tool.name));
    expect(tools.map((tool) => tool.name)).toEqual(["list_scenarios", "get_scenario", "list_subjects", "get_subject", "get_health_record", "search_fhir", "read_fhir"]);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe("object");
    }
    expect(tools.find((tool) => tool.name === "search_fhir")?.inputSchema).toMatchObject({ properties: { resourceType: { type: "string" }, patient: { type: "string" } }, required: ["resourceType"] });
  });

  it("answers every tool exactly as its demo route", async () => {
    const scenarios = await demo("/scenarios");
    const baseline = (scenarios.body.data as { id: string; subject: string | null; patient_id: string | null; bundle_id: string | null }[]).find((scenario) => scenario.id === "baseline-adult")!;
    const cases: [string, Record<string, unknown>, string][] = [
      ["list_scenarios", {}, "/scenarios"],
      ["get_scenario", { scenarioId: "baseline-adult" }, "/scenarios/baseline-adult"],
      ["list_subjects", {}, "/patients"],
      ["get_subject", { patientId: baseline.patient_id }, `/patients/${baseline.patient_id}`],
      ["get_health_record", { subject: baseline.subject, categories: "labs,medications" }, `/users/${baseline.subject}/records?categories=labs,medications`],
      ["search_fhir", { resourceType: "Condition", patient: baseline.subject }, `/fhir/Condition?patient=${baseline.subject}`],
      ["read_fhir", { resourceType: "Bundle", resourceId: baseline.bundle_id }, `/fhir/Bundle/${baseline.bundle_id}`],
    ];
    for (const [name, args, pathname] of cases) {
      const result = await call(name, args);
      const twin = await demo(pathname);
      expect([name, twin.status]).toEqual([name, 200]);
      expect(result.isError, name).toBeFalsy();
      expect(withoutClock(result.structuredContent), name).toEqual(withoutClock(twin.body));
    }
  });

  it("answers the demo's own errors as tool errors with the envelope: an unknown scenario, a revoked consent", async () => {
    const scenarios = (await demo("/scenarios")).body.data as { id: string; subject: string | null }[];
    const revoked = scenarios.find((scenario) => scenario.id === "consent-revoked")!;
    for (const [name, args, pathname] of [
      ["get_scenario", { scenarioId: "nope" }, "/scenarios/nope"],
      ["get_health_record", { subject: revoked.subject }, `/users/${revoked.subject}/records`],
    ] as const) {
      const result = await call(name, args);
      const twin = await demo(pathname);
      expect(twin.status).toBeGreaterThanOrEqual(400);
      expect(result.isError).toBe(true);
      const { error } = twin.body as { error: Record<string, unknown> };
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({ error: { ...error, requestId: expect.stringMatching(/^req_/) } });
      expect(result.structuredContent).toBeUndefined();
    }
  });

  it("is open to browsers like the demo: CORS on answers and preflights for the MCP headers", async () => {
    const preflight = await fetch(`${origin}/demo/v1/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://assistant.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, mcp-protocol-version" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-protocol-version");
    const answer = await fetch(`${origin}/demo/v1/mcp`, {
      method: "POST",
      headers: { Origin: "https://assistant.example", "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("ratelimit-policy")).toBe('"demo";q=120;w=60');
    expect(((await answer.json()) as { id: number }).id).toBe(7);
  });

  it("is pointed to by the demo index and the demo OpenAPI document", async () => {
    const index = await demo("/");
    expect((index.body.links as Record<string, string>).mcp).toBe("/demo/v1/mcp");
    const document = await demo("/openapi.json");
    expect((document.body.info as { description: string }).description).toContain("/demo/v1/mcp");
    expect((document.body.paths as Record<string, unknown>)["/mcp"]).toHaveProperty("post");
  });
});

/** Demo answers that carry the time they were made (`meta.generatedAt`) differ only there. */
function withoutClock(body: unknown): unknown {
  const record = body as { meta?: Record<string, unknown> };
  return record.meta && "generatedAt" in record.meta ? { ...record, meta: { ...record.meta, generatedAt: null } } : body;
}
