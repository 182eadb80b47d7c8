import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";

// tools/call with `arguments` that is not an object (or params that do not fit the method) answers JSON-RPC -32602
// Invalid params with a sentence naming the field, on both MCP servers; the SDK alone answered -32603 Internal
// error with zod's issues dumped as its message. Text PostgreSQL cannot store inside arguments fails the request as
// a whole (HTTP 400, the envelope as the error's data), as every other API body does.

let origin: string;
let close: () => Promise<void>;
let sandboxKey: string;
let applicationId: string;
const clients: Client[] = [];

beforeAll(async () => {
  ({ origin, close } = await startApiServer());
  ({ sandboxKey, application: { id: applicationId } } = await createTestApplication());
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await close();
});

const SERVERS = [
  { path: "/api/v1/mcp", tool: "get_app", headers: () => ({ Authorization: `Bearer ${sandboxKey}` }) },
  { path: "/demo/v1/mcp", tool: "list_scenarios", headers: () => ({}) },
];

async function post(path: string, headers: Record<string, string>, message: unknown) {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
  return { status: response.status, body: (await response.json()) as { id?: unknown; error?: { code: number; message: string; data?: { error: { code: string; message: string } } } } };
}

for (const server of SERVERS) {
  describe(`tools/call on ${server.path}`, () => {
    const cases: [string, unknown, string][] = [
      ["a string", "get_app", "params.arguments must be an object, not a string."],
      ["an array", [1, 2], "params.arguments must be an object, not an array."],
      ["a number", 3, "params.arguments must be an object, not a number."],
      ["null", null, "params.arguments must be an object, not null."],
    ];
    for (const [what, args, message] of cases) {
      it(`answers arguments that are ${what} with -32602 Invalid params naming them`, async () => {
        const answer = await post(server.path, server.headers(), { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: server.tool, arguments: args } });
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ jsonrpc: "2.0", id: 9, error: { code: ErrorCode.InvalidParams, message: `tools/call: ${message}` } });
      });
    }

    it("answers a missing tool name with -32602, and the SDK client sees it as an McpError", async () => {
      const answer = await post(server.path, server.headers(), { jsonrpc: "2.0", id: "a", method: "tools/call", params: {} });
      expect(answer.body).toEqual({ jsonrpc: "2.0", id: "a", error: { code: ErrorCode.InvalidParams, message: "tools/call: params.name is required." } });

      const client = new Client({ name: "chartkey-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}${server.path}`), { requestInit: { headers: server.headers() } }));
      clients.push(client);
      const call = client.request({ method: "tools/call", params: { name: server.tool, arguments: "x" as never } }, CallToolResultSchema);
      await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining("params.arguments must be an object, not a string.") });
      // The same client goes on working: a well-formed call is answered.
      expect((await client.callTool({ name: server.tool, arguments: {} })).isError).toBeFalsy();
    });

    it("fails a call whose arguments hold NUL or a lone surrogate as a whole: HTTP 400, invalid_request naming the field", async () => {
      for (const [text, character] of [["a\u0000b", "U+0000"], ["\ud800", "U+D800"]]) {
        const answer = await post(server.path, server.headers(), { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: server.tool, arguments: { note: text } } });
        expect(answer.status).toBe(400);
        expect(answer.body.error?.code).toBe(-32001);
        expect(answer.body.error?.data?.error).toMatchObject({ code: "invalid_request", message: `params.arguments.note contains a character that cannot be stored (${character}).` });
      }
    });
  });
}

describe("create_connect_session over MCP", () => {
  it("stores nothing when externalUserId holds NUL", async () => {
    const answer = await post("/api/v1/mcp", { Authorization: `Bearer ${sandboxKey}` }, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "create_connect_session", arguments: { categories: ["medications"], externalUserId: "a\u0000b" } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.data?.error.message).toBe("params.arguments.externalUserId contains a character that cannot be stored (U+0000).");
    expect(await db().connectSession.count({ where: { applicationId } })).toBe(0);
  });
});
