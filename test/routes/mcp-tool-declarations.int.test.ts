import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { apiDispatcher, route, setApiDispatcher, type ApiDispatcher } from "@/lib/api";
import { startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";
import { testOperation } from "@/test/operations";

// A tool is its operation's declaration: here another declaration of its operation is served at its path the way
// a route file serves it, and the MCP server lists and calls the tool from that declaration alone (no MCP change).

const startRun = testOperation({
  method: "POST",
  path: "/conformance/runs",
  auth: "key",
  summary: "Start a conformance run",
  body: z.strictObject({ scenario: z.string().describe("A record scenario.") }),
  success: { status: 201, description: "The run.", schema: z.object({ id: z.string(), scenario: z.string(), phase: z.string() }) },
});
const served = route(startRun, ({ body }) => ({ status: 201, body: { id: "run_later", scenario: body.scenario, phase: "session" } }));

let origin: string;
let close: () => Promise<void>;
let routes: ApiDispatcher;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
  routes = apiDispatcher();
  const at = "/api/v1/conformance/runs";
  setApiDispatcher({
    dispatch: (request) => (new URL(request.url).pathname === at ? served(request) : routes.dispatch(request)),
    operationAt: (method, pathname) => (method === "POST" && pathname === at ? startRun : routes.operationAt(method, pathname)),
  });
});
afterAll(async () => {
  setApiDispatcher(routes);
  await close();
});

describe("a tool follows the declaration serving its operation", () => {
  it("is listed with the declaration's schemas and answers as the operation, with no change to the MCP server", async () => {
    const { sandboxKey } = await createTestApplication();
    const client = new Client({ name: "later", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/api/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${sandboxKey}` } } }));
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
