import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFailuresPerMinute } from "@/lib/config";
import { startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";

// An address that spent its failed authentications is refused by the MCP server as a whole for every bad or missing
// key: a JSON-RPC error with 429 and Retry-After. A key that authenticates is still served (under its own limit), as
// on REST, so a backend behind a shared address keeps working. Its own file: every request here comes from 127.0.0.1.

let origin: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
});
afterAll(() => close());

const listTools = (token: string) =>
  fetch(`${origin}/api/v1/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

describe("the MCP server and the per-address limit on failed authentications", () => {
  it("answers bad keys 429 with Retry-After and a JSON-RPC error once the address spent its failures, and still serves a good key", async () => {
    const { sandboxKey } = await createTestApplication();
    expect((await listTools(sandboxKey)).status).toBe(200);
    // Each unknown key counts against the address; the one over its limit is itself refused with 429.
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= authFailuresPerMinute(); attempt++) {
      const answer = await listTools(`ck_test_${"x".repeat(43)}`);
      statuses.push(answer.status);
      await answer.body?.cancel();
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const refused = await listTools(`ck_test_${"y".repeat(43)}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001, data: { error: { code: "rate_limited" } } } });
    const served = await listTools(sandboxKey);
    expect(served.status).toBe(200);
    expect((await served.json()).result.tools.length).toBeGreaterThan(0);
  });
});
