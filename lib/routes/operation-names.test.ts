import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// One name per operation: its operationId names the declaration (`<operationId>Operation`) and the domain function its
// route calls (`<operationId>`), so a reader who finds one in a trace, the OpenAPI document or an import finds the
// others with one search. Read from the source, since a module's export names are not visible at run time.
const ROOT = join(__dirname, "..", "..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every exported operation declaration: its export name and its operationId. */
function declarations(): { name: string; operationId: string; file: string }[] {
  return sourceFiles(join(ROOT, "lib")).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/export const (\w+) = (defineOperation\(\{|\w+Operation\()/g)].map((match) => {
      const following = text.slice(match.index, match.index + 2_000);
      // A declaration made by a factory of this domain names its operationId as the factory's second argument.
      const operationId = match[2]!.startsWith("defineOperation") ? following.match(/operationId: "(\w+)"/)?.[1] : following.match(/\w+Operation\("[^"]*", "(\w+)"/)?.[1];
      return { name: match[1]!, operationId: operationId ?? "(none)", file: file.slice(ROOT.length + 1) };
    });
  });
}

/** Each `route(declaration, handler)` of the route tables, with the handler's source. */
function routes(): { declaration: string; handler: string }[] {
  const directory = join(ROOT, "lib", "routes");
  return readdirSync(directory)
    .filter((name) => name.endsWith("-routes.ts"))
    .flatMap((name) => {
      const text = readFileSync(join(directory, name), "utf8");
      const starts = [...text.matchAll(/\broute\((\w+),/g)];
      return starts.map((match, index) => ({ declaration: match[1]!, handler: text.slice(match.index, starts[index + 1]?.index ?? text.length) }));
    });
}

// Operations answered inline, from constants or presenters shared by several operations: there is no domain function
// to name.
const ANSWERED_INLINE = new Set([
  "getDemoHealth",
  "listDemoScenarios",
  "getDemoScenario",
  "listDemoPatients",
  "getDemoPatient",
  "getDemoLegacyRecord",
  "getDemoHealthRecord",
  "getEhrSmartConfiguration",
  "getEhrRootSmartConfiguration",
  "searchEhrFhir",
  "readEhrFhir",
  "platformMcp",
  "demoMcp",
]);

describe("one name per operation", () => {
  it("exports each declaration as <operationId>Operation", () => {
    const found = declarations();
    expect(found.length).toBeGreaterThan(40);
    expect(found.filter(({ name, operationId }) => name !== `${operationId}Operation`)).toEqual([]);
  });

  it("serves each route through its declaration, and the handler calls the domain function named by the operationId", () => {
    const served = routes();
    expect(served.length).toBeGreaterThan(40);
    const misnamed = served.filter(({ declaration, handler }) => {
      const operationId = declaration.replace(/Operation$/, "");
      if (!declaration.endsWith("Operation")) return true;
      return !ANSWERED_INLINE.has(operationId) && !new RegExp(`\\b${operationId}\\(`).test(handler);
    });
    expect(misnamed.map(({ declaration }) => declaration)).toEqual([]);
  });
});
