import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PLATFORM_PROFILE, route, routeTable, type ApiDispatcher } from "@/lib/api";
import { INTERNAL_HEADER } from "@/lib/http";
import { PLATFORM_TOOLS, platformMcpOperation, serveMcp } from "@/lib/mcp";
import { API_DISPATCHER } from "@/lib/routes";
import { createTestApplication } from "@/test/factories";
import { testOperation } from "@/test/operations";

// A tool is its operation's declaration: here another declaration of its operation is served at its path by a
// table built from it, and the MCP server lists and calls the tool from that declaration alone (no MCP change).

const startRun = testOperation({
  method: "POST",
  path: "/conformance/runs",
  auth: "key",
  summary: "Start a conformance run",
  body: z.strictObject({ scenario: z.string().describe("A record scenario.") }),
  success: { status: 201, description: "The run.", schema: z.object({ id: z.string(), scenario: z.string(), phase: z.string() }) },
});
const served = route(startRun, ({ body }) => ({ status: 201, body: { id: "run_later", scenario: body.scenario, phase: "session" } }));

// The platform's own operations, but this declaration at its path; MCP served from the same table.
const at = "/api/v1/conformance/runs";
const dispatcher: ApiDispatcher = {
  dispatch: (request) => (new URL(request.url).pathname === at ? table.handle(request) : API_DISPATCHER.dispatch(request)),
  operationAt: (method, pathname) => (pathname === at ? table.operationAt(method, pathname) : API_DISPATCHER.operationAt(method, pathname)),
};
const table = routeTable(PLATFORM_TOOLS.prefix, PLATFORM_PROFILE, [
  served,
  route(platformMcpOperation, ({ request, requestId, body }) => serveMcp(PLATFORM_TOOLS, request, requestId, body, dispatcher)),
]);

/** The MCP client's HTTP, answered by the table in process, from a client address as the platform server sets it. */
const viaTable = (url: string | URL, init?: RequestInit) => {
  const request = new Request(url, init);
  request.headers.set(INTERNAL_HEADER.clientAddress, "192.0.2.10");
  return table.handle(request);
};

describe("a tool follows the declaration serving its operation", () => {
  it("is listed with the declaration's schemas and answers as the operation, with no change to the MCP server", async () => {
    const { sandboxKey } = await createTestApplication();
    const client = new Client({ name: "later", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/api/v1/mcp"), { fetch: viaTable, requestInit: { headers: { Authorization: `Bearer ${sandboxKey}` } } }));
    const tool = (await client.listTools()).tools.find((candidate) => candidate.name === "start_conformance_run");
    expect(tool).toMatchObject({
      title: "Start a conformance run",
      inputSchema: { type: "object", properties: { scenario: { type: "string", description: "A record scenario." } }, required: ["scenario"] },
      outputSchema: { type: "object", required: ["id", "scenario", "phase"] },
    });
    const result = await client.callTool({ name: "start_conformance_run", arguments: { scenario: "baseline-adult" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: "run_later", scenario: "baseline-adult", phase: "session" });
    await client.close();
  });
});
