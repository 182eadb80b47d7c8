import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ApiDispatcher } from "@/lib/api";
import { ApiError, errorEnvelope, INTERNAL_HEADER } from "@/lib/http";
import { toolOperation } from "./tool-definitions";
import { pathParameters, type ToolEntry, type ToolSet } from "./tools";

/** The headers of the MCP request its tools' REST requests carry: the same caller, from the same address. */
const FORWARDED = ["authorization", INTERNAL_HEADER.clientAddress] as const;

/**
 * Calls a tool: its REST twin, in process, through the operation's own route (authentication, limits, validation,
 * handler, request log), with the arguments placed as the operation reads them. The answer's body is the tool's
 * structured result; an error answer is a tool error (`isError`) whose text is the spec's error envelope.
 */
export async function callTool(
  set: ToolSet,
  entry: ToolEntry,
  args: Record<string, unknown>,
  mcp: { request: Request; requestId: string },
  dispatcher: ApiDispatcher,
): Promise<CallToolResult> {
  const operation = toolOperation(set, entry, dispatcher);
  const rest: Record<string, unknown> = { ...args };
  let path = entry.path;
  for (const name of pathParameters(entry.path)) {
    const value = rest[name];
    delete rest[name];
    if (typeof value !== "string" || value === "") return toolError(new ApiError("invalid_request", `${name} is required.`), mcp.requestId);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const url = new URL(set.prefix + path, mcp.request.url);
  const queryNames = operation.query instanceof z.ZodObject ? Object.keys(operation.query.shape) : [];
  const inBody = entry.method !== "GET" && operation.body !== undefined;
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (inBody && !queryNames.includes(name)) body[name] = value;
    else url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }

  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = mcp.request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (inBody) headers.set("content-type", "application/json");
  const response = await dispatcher.dispatch(new Request(url, { method: entry.method, headers, body: inBody ? JSON.stringify(body) : undefined }));
  const text = await response.text();
  // An error's envelope is the result's text only: structured content must match the tool's output schema.
  if (!response.ok) return { content: [{ type: "text", text }], isError: true };
  return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

function toolError(error: ApiError, requestId: string): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(errorEnvelope(error, requestId)) }], isError: true };
}
