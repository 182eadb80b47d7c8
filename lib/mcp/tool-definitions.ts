import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { operationName, type ApiDispatcher, type OperationDeclaration } from "@/lib/api";
import type { ToolEntry, ToolSet } from "./tools";

type JsonSchema = { [keyword: string]: unknown };
type ObjectSchema = Tool["inputSchema"];

/** The declaration serving a tool's REST twin. Every tool mirrors a declared operation (tool-definitions.test.ts). */
export function toolOperation(set: ToolSet, entry: ToolEntry, dispatcher: ApiDispatcher): OperationDeclaration {
  const operation = dispatcher.operationAt(entry.method, set.prefix + entry.path);
  if (operation?.path !== entry.path) throw new Error(`MCP tool ${entry.name} mirrors ${operationName(entry)}, which no operation declares`);
  return operation;
}

/**
 * A tool as tools/list describes it, generated from its operation's declaration: the summary and description, an
 * input schema merged from the same zod schemas that parse the REST request's path, query and body, the success
 * body's schema as the output schema, and hints from the method.
 */
export function toolDefinition(set: ToolSet, entry: ToolEntry, dispatcher: ApiDispatcher): Tool {
  const operation = toolOperation(set, entry, dispatcher);
  const twin = `Mirrors ${operationName(entry)} (${set.prefix}${entry.path}).`;
  const readOnly = entry.method === "GET";
  return {
    name: entry.name,
    title: operation.summary,
    description: [`${operation.summary.replace(/\.$/, "")}.`, operation.description, twin].filter(Boolean).join(" "),
    inputSchema: inputSchema(operation),
    ...(objectSchema(operation.success.schema) ? { outputSchema: objectSchema(operation.success.schema) } : {}),
    annotations: { readOnlyHint: readOnly, destructiveHint: !readOnly && entry.destructive === true, idempotentHint: readOnly, openWorldHint: false },
  };
}

function inputSchema(operation: OperationDeclaration): ObjectSchema {
  const shape = Object.assign({}, ...[operation.params, operation.query, operation.body].map((schema) => (schema instanceof z.ZodObject ? schema.shape : {})));
  return objectSchema(z.strictObject(shape), "input") ?? { type: "object" };
}

/**
 * A zod object schema as a JSON Schema object with `type: "object"` at its root (MCP requires it), inlining the
 * root `$ref` zod writes for a schema that carries an id; nested shared shapes stay in `$defs`.
 */
function objectSchema(schema: z.ZodType, io: "input" | "output" = "output"): ObjectSchema | undefined {
  const { $defs, $ref, ...root } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
    $ref?: string;
  };
  // The dialect is MCP's (JSON Schema 2020-12 by default), not each schema's.
  delete root.$schema;
  const id = typeof $ref === "string" ? $ref.replace("#/$defs/", "") : undefined;
  const resolved = id && $defs?.[id] ? { ...$defs[id], ...root } : root;
  if (resolved.type !== "object") return undefined;
  return { ...resolved, ...($defs ? { $defs } : {}) } as ObjectSchema;
}
