import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { OperationDeclaration } from "@/lib/api";
import { HEADER } from "@/lib/http";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS } from "@/lib/openapi";
import { createTestApplication } from "@/test/factories";
import { startPlatformServer } from "@/test/platform-server";
import { send } from "@/test/raw-http";

// Every operation that takes a JSON body, generated from the declarations, sent a small body that nests 10,000
// levels deep (60 KB, under the 64 KiB limit): refused as 400 invalid_request in the envelope before anything
// walks it. Before the bound, the TEFCA operations' demographics check overflowed the stack (500 internal_error).

const withBodies = [
  ...PLATFORM_OPERATIONS.map((operation) => ({ prefix: "/api/v1", operation })),
  ...DEMO_DOCUMENT_OPERATIONS.map((operation) => ({ prefix: "/demo/v1", operation })),
].filter(({ operation }) => operation.body);

let port: number;
let close: () => Promise<void>;
let key: string;

beforeAll(async () => {
  ({ port, close } = await startPlatformServer());
  key = (await createTestApplication()).sandboxKey;
});
afterAll(() => close());

function target(prefix: string, operation: OperationDeclaration): string {
  const examples = operation.params ? (z.toJSONSchema(operation.params, { io: "input" }) as { properties: Record<string, { example?: string }> }).properties : {};
  return prefix + operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(examples[name]?.example ?? "x"));
}

describe("deeply nested request bodies", () => {
  const deep = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);

  it("finds the operations with bodies, the TEFCA ones among them", () => {
    expect(withBodies.filter(({ operation }) => operation.path.startsWith("/tefca")).length).toBeGreaterThanOrEqual(3);
    expect(deep.length).toBeLessThan(64 * 1024);
  });

  for (const { prefix, operation } of withBodies) {
    it(`${operation.method} ${prefix}${operation.path}: 400 invalid_request, never a 5xx`, async () => {
      const response = await send(port, {
        method: operation.method,
        path: target(prefix, operation),
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: deep,
      });
      expect(response.status, response.body.slice(0, 300)).toBe(400);
      const answer = JSON.parse(response.body);
      // The MCP servers refuse a whole request as a JSON-RPC error that carries the spec's envelope as its data.
      const envelope = operation.path === "/mcp" ? answer.error.data : answer;
      if (operation.path === "/mcp") expect(answer).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001 } });
      expect(envelope.error).toMatchObject({ code: "invalid_request", message: expect.stringContaining("deeper than") });
      expect(response.headers[HEADER.requestId.toLowerCase()]).toMatch(/^req_/);
    });
  }
});
