import { operationName, type OperationDeclaration } from "@/lib/api";
import { DEMO_TOOLS, PLATFORM_TOOLS, type ToolSet } from "@/lib/mcp";
import { DEMO_DOCUMENT_OPERATIONS } from "./demo-document";
import { PLATFORM_OPERATIONS } from "./platform-document";

export type ToolSummary = { name: string; operation: string; summary: string; readOnly: boolean };

/**
 * The tools of an MCP server as the docs list them, from the same declarations the servers generate them from:
 * each tool's REST operation and its summary.
 */
export function toolCatalog(server: "platform" | "demo"): { prefix: string; tools: ToolSummary[] } {
  const [set, operations]: [ToolSet, readonly OperationDeclaration[]] = server === "platform" ? [PLATFORM_TOOLS, PLATFORM_OPERATIONS] : [DEMO_TOOLS, DEMO_DOCUMENT_OPERATIONS];
  return {
    prefix: set.prefix,
    tools: set.tools.map((entry) => {
      const operation = operations.find((candidate) => candidate.method === entry.method && candidate.path === entry.path);
      if (!operation) throw new Error(`MCP tool ${entry.name} mirrors ${operationName(entry)}, which no operation declares`);
      return { name: entry.name, operation: operationName(entry), summary: operation.summary, readOnly: entry.method === "GET" };
    }),
  };
}
