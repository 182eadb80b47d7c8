import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { OperationDeclaration } from "@/lib/api";
import { getConformanceReportOperation } from "@/lib/conformance";
import { EHR_OPERATIONS } from "@/lib/ehr";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS } from "@/lib/openapi";
import { DEMO_ROUTES, EHR_ROUTES, PLATFORM_ROUTES, REPORT_ROUTES } from "@/lib/routes";

/**
 * Every API family is served by a dispatch table, through one catch-all route file: the two documented families
 * with the declarations their OpenAPI documents list, the synthetic health systems with theirs (SMART apps discover
 * those from the SMART configuration, not from OpenAPI), and the shared conformance reports (at the host root, so
 * their declared paths keep the folder's /conformance).
 */
const TABLES = [
  { table: PLATFORM_ROUTES, folder: "app/api/v1", declarations: PLATFORM_OPERATIONS },
  { table: DEMO_ROUTES, folder: "app/demo/v1", declarations: DEMO_DOCUMENT_OPERATIONS },
  { table: EHR_ROUTES, folder: "app/ehr", declarations: EHR_OPERATIONS },
  { table: REPORT_ROUTES, folder: "app/conformance", declarations: [getConformanceReportOperation as OperationDeclaration] },
];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(folder: string): string[] {
  const root = path.join(process.cwd(), folder);
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => path.join(folder, file));
}

describe("the API families' dispatch tables serve exactly their declared operations", () => {
  for (const { table, folder, declarations } of TABLES) {
    it(`${folder}: table and declarations match one to one, each at its declared method and path`, () => {
      expect([...table.operations].sort(byId)).toEqual([...declarations].sort(byId));
      for (const operation of declarations) {
        const concrete = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-value`);
        expect(table.operationAt(operation.method, table.prefix + concrete), operation.operationId).toBe(operation);
      }
    });

    it(`${folder}: one catch-all route file hands every path to the table (Next.js serves no other route there)`, async () => {
      const files = routeFiles(folder);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\[\[\.\.\.path\]\]/);
      const routeModule = (await import(/* @vite-ignore */ path.join(process.cwd(), files[0]!))) as Record<string, unknown>;
      for (const method of [...METHODS, "OPTIONS"] as const) expect(routeModule[method], method).toBe(table.routeExports[method]);
    });
  }
});

const byId = (a: OperationDeclaration, b: OperationDeclaration) => a.operationId.localeCompare(b.operationId);

describe("operations across the families", () => {
  it("operation ids are unique across the families (they name the MCP tools too)", () => {
    const ids = TABLES.flatMap((family) => family.declarations.map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
