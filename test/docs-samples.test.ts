import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { GUIDES } from "@/components/docs/guides";
import { referenceDocument, type CodeSample } from "@/lib/openapi";

/** What the docs' samples use without declaring it: the reader's client and their own storage. */
const AMBIENT: Record<string, string> = {
  chartkey: 'declare const chartkey: import("@chartkey/sdk").Chartkey;',
  subject: "declare const subject: string;",
  savedCursor: "declare const savedCursor: string;",
  store: "declare const store: { put(id: string, record: unknown): void; delete(id: string): void; saveCursor(cursor: string): void };",
  db: [
    "declare const db: {",
    "  cursorFor(subject: string, category: string): Promise<string | null>;",
    '  putRecord(subject: string, recordId: string, record: import("@chartkey/sdk").HealthRecord): Promise<void>;',
    "  deleteRecord(subject: string, recordId: string): Promise<void>;",
    "  saveCursor(subject: string, category: string, cursor: string): Promise<void>;",
    "};",
  ].join("\n"),
  queue: 'declare const queue: { push(event: import("@chartkey/sdk").WebhookEvent): void };',
};

/** The sample as a module of its own, with declarations for the ambient names it uses but does not declare. */
function asModule(code: string): string {
  const declarations = Object.entries(AMBIENT)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`\\b(const|let) ${name}\\b`).test(code))
    .map(([, declaration]) => declaration);
  return `${declarations.join("\n")}\n${code}\nexport {};\n`;
}

/** Compiled strictly against the SDK's source (`@chartkey/sdk`), as a reader's project would; one line per error. */
function typeErrors(samples: Map<string, string>): string[] {
  const root = process.cwd();
  const files = new Map([...samples].map(([name, source]) => [path.join(root, ".samples", `${name}.ts`), source]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ["node"],
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    baseUrl: root,
    paths: { "@chartkey/sdk": ["./packages/sdk/src/index.ts"] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => files.get(file) ?? readFile(file);
  host.fileExists = (file) => files.has(file) || fileExists(file);
  return ts
    .getPreEmitDiagnostics(ts.createProgram([...files.keys()], options, host))
    .map((diagnostic) => `${diagnostic.file ? path.basename(diagnostic.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
}

it("every TypeScript sample the docs show (the reference's per operation, the guides') uses @chartkey/sdk and type-checks against it", () => {
  const samples = new Map<string, string>();
  for (const item of Object.values(referenceDocument("platform").paths)) {
    for (const operation of Object.values(item) as { operationId: string; "x-codeSamples"?: CodeSample[] }[]) {
      for (const sample of (operation["x-codeSamples"] ?? []).filter((candidate) => candidate.lang === "typescript")) samples.set(`reference-${operation.operationId}`, asModule(sample.source));
    }
  }
  for (const { slug } of GUIDES) {
    const mdx = readFileSync(path.join(process.cwd(), "app/docs/guides", slug, "page.mdx"), "utf8");
    [...mdx.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].forEach(([, code], index) => samples.set(`guide-${slug}-${index + 1}`, asModule(code!)));
  }
  expect([...samples.keys()].filter((name) => name.startsWith("reference-")).length).toBeGreaterThan(20);
  // Each guide that calls the API from code shows it in TypeScript.
  for (const slug of ["quickstart", "connect", "records", "webhooks", "tefca"]) expect([...samples.keys()], slug).toContain(`guide-${slug}-1`);
  for (const [name, code] of samples) expect(code, name).toMatch(/\bchartkey\b/);
  expect(typeErrors(samples)).toEqual([]);
}, 120_000);
