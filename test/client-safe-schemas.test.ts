import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every domain's `schemas.ts` may be imported by client components (ESLint allows `@/lib/<domain>/schemas` for that),
 * so nothing it loads at run time may reach the database, Node's built-ins or server-only packages: the browser
 * bundle would fail to build, or worse, ship server code.
 */
const ROOT = process.cwd();
const SERVER_ONLY = [/^node:/, /^pg($|\/)/, /^@prisma\//, /^next\/headers$/, /^next-auth/, /^pino/, /^@node-rs\//, /^pg-boss/];

function runtimeImports(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
    if (!match[1]) specifiers.push(match[2]!);
  }
  return specifiers;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? path.join(ROOT, specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  if (base.endsWith(".json") && fs.existsSync(base)) return null; // data: nothing it loads
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) if (fs.existsSync(candidate)) return candidate;
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

function serverOnlyReach(entry: string): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      const local = resolveLocal(file, specifier);
      const here = [...trail, path.relative(ROOT, file)];
      if (local === null) {
        if (SERVER_ONLY.some((pattern) => pattern.test(specifier))) problems.push(`${[...here, specifier].join(" -> ")}`);
        continue;
      }
      if (path.relative(ROOT, local).startsWith(path.join("lib", "db"))) problems.push(`${[...here, path.relative(ROOT, local)].join(" -> ")}`);
      else visit(local, here);
    }
  };
  visit(entry, []);
  return problems;
}

describe("domain schemas are client-safe", () => {
  const files = fs
    .readdirSync(path.join(ROOT, "lib"))
    .map((domain) => path.join(ROOT, "lib", domain, "schemas.ts"))
    .filter((file) => fs.existsSync(file));

  it("finds the domains' schema files", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    it(`${path.relative(ROOT, file)} reaches no database, Node built-in or server-only package`, () => {
      expect(serverOnlyReach(file)).toEqual([]);
    });
  }

  it("catches a schema file that reaches the database through another domain", () => {
    const probe = path.join(ROOT, "lib", "records", "categories.ts");
    expect(serverOnlyReach(probe).length).toBeGreaterThan(0);
  });
});
