import { describe, expect, it } from "vitest";
import type { ApiDispatcher, OperationDeclaration } from "@/lib/api";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS, toolCatalog } from "@/lib/openapi";
import { toolDefinition } from "./tool-definitions";
import { DEMO_TOOLS, PLATFORM_TOOLS, type ToolSet } from "./tools";

/** Resolves declarations as the platform server's dispatcher does for a tool: by method and full path template. */
function declaring(prefix: string, operations: readonly OperationDeclaration[]): ApiDispatcher {
  return {
    dispatch: () => Promise.reject(new Error("not dispatched in this test")),
    operationAt: (method, pathname) => operations.find((operation) => operation.method === method && prefix + operation.path === pathname),
  };
}

const SERVERS: ["platform" | "demo", ToolSet, readonly OperationDeclaration[]][] = [
  ["platform", PLATFORM_TOOLS, PLATFORM_OPERATIONS],
  ["demo", DEMO_TOOLS, DEMO_DOCUMENT_OPERATIONS],
];

describe("MCP tools", () => {
  it.each(SERVERS)("every tool of the %s server mirrors an operation its API declares, and is described from it", (server, set, operations) => {
    const dispatcher = declaring(set.prefix, operations);
    for (const entry of set.tools) {
      const operation = operations.find((candidate) => candidate.method === entry.method && candidate.path === entry.path);
      expect(operation, entry.name).toBeDefined();
      expect(toolDefinition(set, entry, dispatcher).title, entry.name).toBe(operation!.summary);
    }
    expect(toolCatalog(server).tools.map((tool) => tool.summary)).toEqual(
      set.tools.map((entry) => operations.find((candidate) => candidate.method === entry.method && candidate.path === entry.path)!.summary),
    );
  });

  it("refuses a tool whose operation nothing declares, rather than inventing its inputs", () => {
    const entry = { name: "get_nothing", method: "GET" as const, path: "/nothing/{id}" };
    expect(() => toolDefinition({ ...PLATFORM_TOOLS, tools: [entry] }, entry, declaring(PLATFORM_TOOLS.prefix, PLATFORM_OPERATIONS))).toThrow(
      "MCP tool get_nothing mirrors GET /nothing/{id}, which no operation declares",
    );
  });
});
