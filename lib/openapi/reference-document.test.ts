import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "@/lib/http";
import type { CodeSample } from "./reference-document";
import { referenceDocument } from "./reference-document";
import type { OpenApiOperation } from "./document-types";

const operationsOf = (key: "platform" | "demo") =>
  Object.values(referenceDocument(key).paths).flatMap((item) => Object.values(item) as (OpenApiOperation & { "x-codeSamples"?: CodeSample[] })[]);

describe("the documents the /docs reference renders", () => {
  it("list every error code their operations answer, with its status, in the description", () => {
    for (const key of ["platform", "demo"] as const) {
      const description = referenceDocument(key).info.description;
      const codes = new Set(operationsOf(key).flatMap((operation) => Object.values(operation.responses).flatMap((response) => response["x-error-codes"] ?? [])));
      expect(codes.size).toBeGreaterThan(5);
      for (const code of codes) expect(description, code).toContain(`| \`${code}\` | ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]} |`);
    }
  });

  it("give every keyed operation an @chartkey/sdk sample that type-checks against the SDK", () => {
    const operations = operationsOf("platform");
    expect(operations.every((operation) => operation["x-codeSamples"]?.[0]?.label === "@chartkey/sdk")).toBe(true);
    expect(operationsOf("demo").some((operation) => operation["x-codeSamples"])).toBe(false);

    // Each sample is a module of its own; `store` and `savedCursor` stand for the reader's own storage.
    const root = process.cwd();
    const preamble = "declare const store: { put(id: string, record: unknown): void; delete(id: string): void; saveCursor(cursor: string): void };\ndeclare const savedCursor: string;\n";
    const files = new Map(operations.map((operation) => [path.join(root, ".samples", `${operation.operationId}.ts`), preamble + operation["x-codeSamples"]![0]!.source]));
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
    const program = ts.createProgram([...files.keys()], options, host);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => `${diagnostic.file ? path.basename(diagnostic.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
    expect(errors).toEqual([]);
  }, 120_000);
});
