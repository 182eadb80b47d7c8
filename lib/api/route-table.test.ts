import { describe, expect, it } from "vitest";
import { z } from "zod";
import { testOperation } from "@/test/operations";
import { PLATFORM_PROFILE } from "./profiles";
import { route } from "./route";
import { routeTable } from "./route-table";

// A table of test operations whose handlers answer their own path and parameters: what the table matched.
const echo = (path: string, method: "GET" | "POST" = "GET", names: string[] = []) => {
  const params = names.length > 0 ? z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) : undefined;
  return route(testOperation({ method, path, auth: "none", params }), ({ params: parsed }) => ({ body: { path, params: parsed ?? null } }));
};
const table = routeTable("/test/v1", PLATFORM_PROFILE, [
  echo("/"),
  echo("/things"),
  echo("/things", "POST"),
  echo("/things/{thingId}", "GET", ["thingId"]),
  echo("/things/special"),
  echo("/things/{thingId}/parts/{partId}", "GET", ["thingId", "partId"]),
]);

async function call(path: string, method = "GET") {
  const response = await table.handle(new Request(`http://localhost${path}`, { method }));
  return { status: response.status, allow: response.headers.get("allow"), body: response.status === 204 ? null : await response.json() };
}

describe("a family's dispatch table, built from its operations' declarations", () => {
  it("routes each declared method and path to its operation, with its parameters", async () => {
    expect((await call("/test/v1")).body).toEqual({ path: "/", params: null });
    expect((await call("/test/v1/things", "POST")).body).toEqual({ path: "/things", params: null });
    expect((await call("/test/v1/things/t_1/parts/p_2")).body).toEqual({ path: "/things/{thingId}/parts/{partId}", params: { thingId: "t_1", partId: "p_2" } });
  });

  it("prefers a static segment to a parameter at the same place", async () => {
    expect((await call("/test/v1/things/special")).body).toMatchObject({ path: "/things/special" });
    expect((await call("/test/v1/things/other")).body).toMatchObject({ path: "/things/{thingId}", params: { thingId: "other" } });
  });

  it("matches segments as written and decodes parameters", async () => {
    expect((await call("/test/v1/things/a%2Fb")).body).toMatchObject({ params: { thingId: "a/b" } });
    expect((await call("/test/v1/%74hings")).status).toBe(404);
    expect((await call("/test/v1/things/%E0%A4%A")).status).toBe(404);
  });

  it("answers the family's 404 for unknown paths and names the allowed methods for unserved ones", async () => {
    for (const path of ["/test/v1/nope", "/test/v1/things/t_1/parts", "/test/v1/things/t_1/parts/p_2/more"]) {
      expect([path, (await call(path)).status, (await call(path)).body.error.code]).toEqual([path, 404, "not_found"]);
    }
    const unserved = await call("/test/v1/things", "DELETE");
    expect([unserved.status, unserved.allow]).toEqual([404, "GET, POST"]);
  });

  it("answers OPTIONS with the path's methods, and HEAD as GET", async () => {
    expect(await call("/test/v1/things", "OPTIONS")).toMatchObject({ status: 204, allow: "GET, POST, OPTIONS" });
    const head = await table.handle(new Request("http://localhost/test/v1/things/special", { method: "HEAD" }));
    expect(head.status).toBe(200);
  });

  it("names the declared operation at a path, and refuses two handlers for one operation", () => {
    expect(table.operationAt("GET", "/test/v1/things/t_9")?.path).toBe("/things/{thingId}");
    expect(table.operationAt("DELETE", "/test/v1/things/t_9")).toBeUndefined();
    expect(table.operationAt("GET", "/other/v1/things")).toBeUndefined();
    expect(() => routeTable("/test/v1", PLATFORM_PROFILE, [echo("/things"), echo("/things")])).toThrow("two handlers for GET /things");
  });
});
