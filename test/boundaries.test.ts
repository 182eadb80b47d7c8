import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

/** The messages of `rule` ESLint reports for `source` if it were the file at `filePath`. */
async function ruleErrors(rule: string, filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === rule).map((message) => message.message);
}

/** The boundary messages ESLint reports for `source` if it were the file at `filePath`. */
function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  return ruleErrors("no-restricted-imports", filePath, source);
}

describe("module boundaries are enforced by ESLint", () => {
  it("another domain is reached through its index only", async () => {
    expect(await boundaryErrors("lib/records/example.ts", 'import { ApiError } from "@/lib/http/api-error";\nexport const x = ApiError;\n')).toHaveLength(1);
    expect(await boundaryErrors("lib/records/example.ts", 'import { ApiError } from "@/lib/http";\nexport const x = ApiError;\n')).toEqual([]);
    expect(await boundaryErrors("scripts/example.ts", 'import { db } from "../lib/db/client";\nexport const x = db;\n')).toHaveLength(1);
  });

  it("a relative path may not leave its domain", async () => {
    expect(await boundaryErrors("lib/records/example.ts", 'import { ApiError } from "../http/api-error";\nexport const x = ApiError;\n')).toHaveLength(1);
    expect(await boundaryErrors("lib/records/normalize/example.ts", 'import { ApiError } from "../../http";\nexport const x = ApiError;\n')).toHaveLength(1);
    expect(await boundaryErrors("lib/records/normalize/example.ts", 'import { CATEGORIES } from "../categories";\nexport const x = CATEGORIES;\n')).toEqual([]);
  });

  it("app/ and components/ never import lib/db", async () => {
    expect(await boundaryErrors("app/example/page.tsx", 'import { db } from "@/lib/db";\nexport const x = db;\n')).toHaveLength(1);
    expect(await boundaryErrors("components/example.tsx", 'import { db } from "@/lib/db";\nexport const x = db;\n')).toHaveLength(1);
  });

  it("lib/ never imports app/", async () => {
    expect(await boundaryErrors("lib/demo/example.ts", 'import { GET } from "@/app/demo/v1/route";\nexport const x = GET;\n')).toHaveLength(1);
  });

  it("the platform's modules never load a dev dependency (production installs omit them); tests and types may", async () => {
    const devImport = 'import { Ajv } from "ajv";\nimport draft from "ajv/dist/refs/json-schema-draft-06.json";\nexport const x = [Ajv, draft];\n';
    const devErrors = (filePath: string, source = devImport) => ruleErrors("@typescript-eslint/no-restricted-imports", filePath, source);
    for (const file of ["lib/fhir/example.ts", "app/api/v1/example/route.ts", "components/example.tsx", "scripts/start.ts", "proxy.ts"]) {
      expect(await devErrors(file), file).toHaveLength(2);
    }
    expect(await devErrors("test/example.ts")).toEqual([]);
    expect(await devErrors("lib/fhir/example.test.ts")).toEqual([]);
    expect(await devErrors("lib/fhir/example.ts", 'import type { ErrorObject } from "ajv";\nexport type X = ErrorObject;\n')).toEqual([]);
  });
});

describe("process-wide state is one instance by construction", () => {
  const stateErrors = (filePath: string, source: string) => ruleErrors("no-restricted-syntax", filePath, source);

  it("a module keeps no state of its own: no module-level let, empty container or globalThis", async () => {
    for (const source of [
      "let cached = 0;\nexport const read = () => cached;\n",
      "const seen = new Map<string, number>();\nexport const read = () => seen;\n",
      "export const errors: Error[] = [];\n",
      "const store = globalThis as { x?: number };\nexport const read = () => store.x;\n",
    ]) {
      expect(await stateErrors("lib/demo/example.ts", source), source).toHaveLength(1);
      expect(await stateErrors("app/example/page.tsx", source), source).toHaveLength(1);
    }
  });

  it("state kept through processState(), constants, lookups built from data and function-local state are fine", async () => {
    const source = [
      'import { processState } from "@/lib/process-state";',
      'const seen = processState("demo.seen", () => new Map<string, number>());',
      'const CODES = new Set(["a", "b"]);',
      "export const read = () => { let count = 0; const local = new Map(); count += local.size; return [seen, CODES, count]; };",
      "",
    ].join("\n");
    expect(await stateErrors("lib/demo/example.ts", source)).toEqual([]);
    expect(await stateErrors("lib/demo/example.test.ts", "let shared = 0;\nexport const read = () => shared;\n")).toEqual([]);
  });
});

/** Runtime imports between lib/ domains (type-only imports vanish at build time and may point anywhere). */
function domainGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const files = fs.readdirSync("lib", { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file) && !file.includes(".test.") && !file.startsWith(`db${path.sep}generated`));
  for (const file of files) {
    const domain = file.split(path.sep)[0]!.replace(/\.tsx?$/, "");
    const source = fs.readFileSync(path.join("lib", file), "utf8");
    for (const match of source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"@\/lib\/([a-z-]+)"/gms)) {
      if (match[1] || match[2] === domain) continue;
      graph.set(domain, (graph.get(domain) ?? new Set()).add(match[2]!));
    }
  }
  return graph;
}

/**
 * Every import between the platform's own files, type-only ones included (ESLint's import-x/no-cycle sees only
 * runtime imports): `./x` and `@/x` resolved to `x.ts`, `x.tsx` or `x/index.ts`.
 */
function fileGraph(): Map<string, string[]> {
  const files = ["lib", "app", "components", "scripts"].flatMap((folder) =>
    fs
      .readdirSync(folder, { recursive: true, encoding: "utf8" })
      .map((file) => path.join(folder, file))
      .filter((file) => /\.tsx?$/.test(file) && !file.includes(".test.") && !file.includes(`${path.sep}generated${path.sep}`)),
  );
  const known = new Set(files);
  const resolve = (spec: string, from: string) => {
    const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.join(path.dirname(from), spec) : null;
    return base === null ? undefined : [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((candidate) => known.has(candidate));
  };
  return new Map(
    files.map((file) => {
      const source = fs.readFileSync(file, "utf8");
      const targets = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)].flatMap((match) => resolve(match[1]!, file) ?? []);
      return [file, targets];
    }),
  );
}

describe("the platform's files form no import cycle", () => {
  it("no file imports, directly or not, a file that imports it back, not even for types", () => {
    const graph = fileGraph();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (trail.includes(file)) return void cycles.push([...trail.slice(trail.indexOf(file)), file].join(" -> "));
      if (done.has(file)) return;
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const file of graph.keys()) visit(file, []);
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles).toEqual([]);
  });
});

describe("the domains form layers", () => {
  it("no domain imports, directly or not, a domain that imports it back", () => {
    const graph = domainGraph();
    const cycles: string[] = [];
    const visit = (domain: string, trail: string[]) => {
      if (trail.includes(domain)) return cycles.push([...trail.slice(trail.indexOf(domain)), domain].join(" -> "));
      for (const next of graph.get(domain) ?? []) visit(next, [...trail, domain]);
    };
    for (const domain of graph.keys()) visit(domain, []);
    expect(cycles).toEqual([]);
  });

  it("the HTTP building blocks sit below authentication and the route kit", () => {
    const http = domainGraph().get("http") ?? new Set();
    expect([...http].filter((domain) => ["auth", "api", "demo", "applications"].includes(domain))).toEqual([]);
  });
});
