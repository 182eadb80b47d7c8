import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { DeclaredHandler, OperationDeclaration, RouteExports } from "@/lib/api";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS } from "@/lib/openapi";
import { API_FOLDERS } from "./api-families";
import { loadApiRoutes, matchRoute, type ApiRouteTable } from "./api-routes";

let table: ApiRouteTable;
beforeAll(async () => {
  table = await loadApiRoutes(path.join(process.cwd(), "app"), API_FOLDERS);
});

const FAMILIES = [
  { prefix: "/api/v1", operations: PLATFORM_OPERATIONS },
  { prefix: "/demo/v1", operations: DEMO_DOCUMENT_OPERATIONS },
];

function served(exports: RouteExports | undefined, method: string): OperationDeclaration | undefined {
  return (exports?.[method as keyof RouteExports] as Partial<DeclaredHandler> | undefined)?.operation;
}

describe("the platform server's API route table (the fast path's router)", () => {
  it("holds every route file of both API families", () => {
    expect(table.files.length).toBeGreaterThan(20);
    expect(table.files).toContain(path.join("api", "v1", "[[...path]]", "route.ts"));
    expect(table.files).toContain(path.join("demo", "v1", "[...path]", "route.ts"));
  });

  for (const family of FAMILIES) {
    it(`${family.prefix}: every declared operation's path reaches the route file serving it, with its parameters`, () => {
      for (const operation of family.operations) {
        const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
        const concrete = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-value`);
        const match = matchRoute(table, family.prefix + concrete);
        expect(served(match?.exports, operation.method), `${operation.method} ${operation.path}`).toBe(operation);
        expect(match?.params).toEqual(Object.fromEntries(names.map((name) => [name, `${name}-value`])));
      }
    });
  }

  it("a path no operation serves reaches the family's catch-all, which serves no operation", () => {
    for (const pathname of ["/api/v1", "/api/v1/nope", "/api/v1/users/u_1/records/labs/changes/more", "/demo/v1/nope/deeper"]) {
      const match = matchRoute(table, pathname);
      expect(match, pathname).toBeDefined();
      expect(served(match!.exports, "GET"), pathname).toBeUndefined();
    }
    expect(matchRoute(table, "/api/v1/nope/deeper")?.params).toEqual({ path: ["nope", "deeper"] });
    expect(matchRoute(table, "/api/v1")?.params).toEqual({});
  });

  it("a static segment wins over a parameter at the same place", () => {
    const metadata = matchRoute(table, "/demo/v1/fhir/metadata");
    expect(served(metadata?.exports, "GET")?.path).toBe("/fhir/metadata");
    expect(served(matchRoute(table, "/demo/v1/fhir/Patient")?.exports, "GET")?.path).toBe("/fhir/{resourceType}");
  });

  it("matches segments as written and decodes parameters, as Next.js does", () => {
    const match = matchRoute(table, "/api/v1/users/a%2Fb/records/lab%73");
    expect(served(match?.exports, "GET")?.path).toBe("/users/{subject}/records/{category}");
    expect(match?.params).toEqual({ subject: "a/b", category: "labs" });
    const encodedStatic = matchRoute(table, "/api/v1/%61pp/x%20y");
    expect(served(encodedStatic?.exports, "GET")).toBeUndefined();
    expect(encodedStatic?.params).toEqual({ path: ["app", "x y"] });
  });

  it("paths outside the families match nothing (Next.js serves them)", () => {
    expect(matchRoute(table, "/docs")).toBeUndefined();
    expect(matchRoute(table, "/")).toBeUndefined();
  });
});
