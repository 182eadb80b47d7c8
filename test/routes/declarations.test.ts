import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DeclaredHandler, OperationDeclaration } from "@/lib/api";
import { getConformanceReport } from "@/lib/conformance";
import { EHR_OPERATIONS } from "@/lib/ehr";
import { DEMO_DOCUMENT_OPERATIONS, PLATFORM_OPERATIONS } from "@/lib/openapi";

/**
 * Each API family's folder under app/ and the declarations its registry lists: the two OpenAPI documents, and the
 * synthetic health systems' list (SMART apps discover those from the SMART configuration, not from OpenAPI).
 */
const FAMILIES = [
  { prefix: "/api/v1", folder: "app/api/v1", declarations: PLATFORM_OPERATIONS },
  { prefix: "/demo/v1", folder: "app/demo/v1", declarations: DEMO_DOCUMENT_OPERATIONS },
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

/** `app/demo/v1/users/[subject]/records/route.ts` -> `/users/{subject}/records`; catch-alls have no template. */
function pathTemplate(folder: string, file: string): string | null {
  const relative = path.dirname(path.relative(folder, file));
  if (relative.includes("[...") || relative.includes("[[...")) return null;
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

describe("every route file serves declared operations, and every declaration has its route", () => {
  for (const family of FAMILIES) {
    it(`${family.prefix}: route files and declarations match one to one`, async () => {
      const served = new Set<OperationDeclaration>();
      for (const file of routeFiles(family.folder)) {
        const relative = pathTemplate(family.folder, file);
        const template = relative === null ? null : `${"mount" in family ? family.mount : ""}${relative}`;
        const operations = await servedOperations(file);
        if (template === null) {
          // The family's catch-all answers 404 for paths no operation serves; it must not serve an operation.
          expect(operations, file).toEqual([]);
          continue;
        }
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
    const ids = FAMILIES.flatMap((family) => family.declarations.map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
