import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DeclaredHandler, OperationDeclaration } from "@/lib/api";
import { getConformanceReport } from "@/lib/conformance";
import { EHR_OPERATIONS } from "@/lib/ehr";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS } from "@/lib/openapi";
import { DEMO_ROUTES, PLATFORM_ROUTES } from "@/lib/routes";

/** The API families served by a dispatch table and the declarations their OpenAPI documents list. */
const TABLES = [
  { table: PLATFORM_ROUTES, folder: "app/api/v1", declarations: PLATFORM_OPERATIONS },
  { table: DEMO_ROUTES, folder: "app/demo/v1", declarations: DEMO_DOCUMENT_OPERATIONS },
];

/**
 * The other families' folders under app/ and their declarations: the synthetic health systems' list (SMART apps
 * discover those from the SMART configuration, not from OpenAPI) and the shared conformance reports.
 */
const FAMILIES = [
  { prefix: "/ehr", folder: "app/ehr", declarations: EHR_OPERATIONS },
  // The shared reports sit at the host root, so their declared paths keep the folder's /conformance.
  { prefix: "/conformance", folder: "app/conformance", declarations: [getConformanceReport as OperationDeclaration], mount: "/conformance" },
];
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(folder: string): string[] {
  const root = path.join(process.cwd(), folder);
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => path.join(folder, file));
}

/** `app/ehr/[providerId]/token/route.ts` -> `/{providerId}/token`. */
function pathTemplate(folder: string, file: string): string {
  const relative = path.dirname(path.relative(folder, file));
  const segments = relative === "." ? [] : relative.split(path.sep);
  return "/" + segments.map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
}

async function servedOperations(file: string): Promise<OperationDeclaration[]> {
  const routeModule = (await import(/* @vite-ignore */ path.join(process.cwd(), file))) as Record<string, unknown>;
  return METHODS.flatMap((method) => {
    const handler = routeModule[method] as Partial<DeclaredHandler> | undefined;
    return handler?.operation ? [handler.operation] : [];
  });
}

describe("the API families' dispatch tables serve exactly their declared operations", () => {
  for (const { table, folder, declarations } of TABLES) {
    it(`${table.prefix}: table and declarations match one to one, each at its declared method and path`, () => {
      expect([...table.operations].sort(byId)).toEqual([...declarations].sort(byId));
      for (const operation of declarations) {
        const concrete = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-value`);
        expect(table.operationAt(operation.method, table.prefix + concrete), operation.operationId).toBe(operation);
      }
    });

    it(`${table.prefix}: one catch-all route file hands every path to the table (Next.js serves no other route there)`, async () => {
      const files = routeFiles(folder);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\[\[\.\.\.path\]\]/);
      const routeModule = (await import(/* @vite-ignore */ path.join(process.cwd(), files[0]!))) as Record<string, unknown>;
      for (const method of [...METHODS, "OPTIONS"] as const) expect(routeModule[method], method).toBe(table.routeExports[method]);
    });
  }
});

const byId = (a: OperationDeclaration, b: OperationDeclaration) => a.operationId.localeCompare(b.operationId);

describe("every route file serves declared operations, and every declaration has its route", () => {
  for (const family of FAMILIES) {
    it(`${family.prefix}: route files and declarations match one to one`, async () => {
      const served = new Set<OperationDeclaration>();
      for (const file of routeFiles(family.folder)) {
        const template = `${"mount" in family ? family.mount : ""}${pathTemplate(family.folder, file)}`;
        const operations = await servedOperations(file);
        expect(operations.length, `${file} serves no declared operation`).toBeGreaterThan(0);
        for (const operation of operations) {
          expect(operation.path, `${file} serves ${operation.operationId}`).toBe(template);
          served.add(operation);
        }
      }
      const undeclared = [...served].filter((operation) => !family.declarations.includes(operation));
      expect(undeclared.map((operation) => operation.operationId), "served but missing from the document").toEqual([]);
      const unserved = family.declarations.filter((operation) => !served.has(operation));
      expect(unserved.map((operation) => operation.operationId), "declared without a route").toEqual([]);
    });
  }

  it("operation ids are unique across the families (they name the MCP tools too)", () => {
    const ids = [...TABLES, ...FAMILIES].flatMap((family) => family.declarations.map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
