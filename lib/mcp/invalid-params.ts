import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/** The requests the MCP servers answer, by method, with the SDK's own schema for each. */
const REQUESTS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/**
 * Why a JSON-RPC request's params do not fit its method, in a sentence naming the field (`params.arguments must be
 * an object, not a string.`), or null when they fit or the method is not one the servers answer (the SDK says so
 * itself). The SDK would parse them too, but answers a failure as -32603 Internal error with zod's issues dumped as
 * its message; the servers answer -32602 Invalid params with this sentence instead.
 */
export function invalidParams(message: unknown): string | null {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return null;
  const { method } = message as { method?: unknown };
  const schema = typeof method === "string" && Object.hasOwn(REQUESTS, method) ? REQUESTS[method] : undefined;
  const parsed = schema?.safeParse(message);
  const issue = parsed && !parsed.success ? parsed.error.issues[0] : undefined;
  if (!issue) return null;
  const field = issue.path.map(String).join(".");
  const found = valueAt(message, issue.path);
  if (issue.code === "invalid_type") {
    if (found === undefined) return `${method as string}: ${field} is required.`;
    return `${method as string}: ${field} must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(found)}.`;
  }
  return `${method as string}: ${field ? `${field}: ` : ""}${issue.message}`;
}

const KINDS: Record<string, string> = {
  record: "an object",
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
};

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  return String(value);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let inner = value;
  for (const key of path) {
    if (inner === null || typeof inner !== "object" || !Object.hasOwn(inner, key)) return undefined;
    inner = (inner as Record<PropertyKey, unknown>)[key];
  }
  return inner;
}
