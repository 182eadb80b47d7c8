import { z } from "zod";
import { defineOperation } from "@/lib/api";
import { DEMO_MCP_PROFILE, MCP_PROFILE } from "./profiles";

const jsonRpcMessage = z
  .looseObject({ jsonrpc: z.literal("2.0"), method: z.string().optional(), id: z.union([z.string(), z.number()]).optional() })
  .meta({ id: "JsonRpcMessage", description: "A JSON-RPC 2.0 message of the Model Context Protocol." });

const MCP_DESCRIPTION =
  "Model Context Protocol over stateless Streamable HTTP: POST one JSON-RPC message (initialize, tools/list, " +
  "tools/call, ...) with Accept: application/json, text/event-stream; the answer is JSON. A refused request (bad " +
  "key, a limit) fails as a whole with a JSON-RPC error and the REST status; a tool's own error is a result with " +
  "isError and the error envelope. No event stream is offered at GET.";

const jsonRpcAnswer = {
  status: 200,
  description: "The JSON-RPC answer (202 with no body for a notification).",
  schema: jsonRpcMessage,
  example: () => ({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "get_health_record", inputSchema: { type: "object" } }] } }),
};

export const platformMcpOperation = defineOperation({
  profile: MCP_PROFILE,
  method: "POST",
  path: "/mcp",
  operationId: "platformMcp",
  tag: "MCP",
  summary: "The authenticated MCP server",
  description: `${MCP_DESCRIPTION} Send the application key as Bearer; each tool mirrors one REST operation and counts as one request of the key. Delegated credentials are refused (401 invalid_agent_token): they are for the REST API.`,
  auth: "key",
  body: jsonRpcMessage,
  bodyExample: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  success: jsonRpcAnswer,
  errors: [],
});

export const demoMcpOperation = defineOperation({
  profile: DEMO_MCP_PROFILE,
  method: "POST",
  path: "/mcp",
  operationId: "demoMcp",
  tag: "Demo",
  summary: "The keyless demo MCP server",
  description: `${MCP_DESCRIPTION} Keyless and read-only: its tools read the demo's fictional data, each answering exactly as its demo REST route, under the demo's per-address limit.`,
  auth: "none",
  body: jsonRpcMessage,
  bodyExample: () => ({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  success: jsonRpcAnswer,
  errors: [],
});
