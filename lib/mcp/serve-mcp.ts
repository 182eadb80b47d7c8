import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ApiDispatcher } from "@/lib/api";
import { SERVICE_VERSION } from "@/lib/http";
import { callTool } from "./call-tool";
import { invalidParams } from "./invalid-params";
import { toolDefinition } from "./tool-definitions";
import type { ToolSet } from "./tools";

/**
 * Answers one MCP request (stateless Streamable HTTP, JSON responses): a fresh SDK server and transport per request,
 * so any instance can answer any request and nothing is kept between them. The body was read by the route pipeline,
 * with the API's own limits (64 KiB, a JSON object). Tools call their REST twins through `dispatcher`.
 */
export async function serveMcp(set: ToolSet, request: Request, requestId: string, parsedBody: unknown, dispatcher: ApiDispatcher): Promise<Response> {
  // Params that do not fit their method (tools/call `arguments` a string, a missing tool name) are answered here:
  // the SDK would answer them -32603 Internal error with zod's issues as the message.
  const problem = invalidParams(parsedBody);
  const id = (parsedBody as { id?: unknown }).id;
  if (problem && (typeof id === "string" || typeof id === "number")) {
    return Response.json({ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: problem } });
  }
  const server = new Server({ name: set.serverName, version: SERVICE_VERSION }, { capabilities: { tools: {} }, instructions: set.instructions });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: set.tools.map((entry) => toolDefinition(set, entry, dispatcher)) }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const entry = set.tools.find((tool) => tool.name === params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${params.name}; tools/list names them.`);
    return callTool(set, entry, params.arguments ?? {}, { request, requestId }, dispatcher);
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
