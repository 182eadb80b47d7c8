import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "./error-codes";

const TABLE = path.join("lib", "http", "error-codes.ts");

/** The platform's source files (lib/ and app/, without tests and Prisma's generated client). */
function sourceFiles(): string[] {
  return ["lib", "app"].flatMap((root) =>
    fs
      .readdirSync(root, { recursive: true, encoding: "utf8" })
      .map((file) => path.join(root, file))
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith(path.join("lib", "db", "generated")) && file !== TABLE),
  );
}

/**
 * Whether a string literal only names a code rather than producing it: an entry of a list (an operation's documented
 * `errors`), a list being added to, a comparison or `case` that tests a caught code, or a literal type.
 */
function onlyNames(literal: ts.Node): boolean {
  const parent = literal.parent;
  if (ts.isArrayLiteralExpression(parent) || ts.isLiteralTypeNode(parent) || ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    const operator = parent.operatorToken.kind;
    return [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(operator);
  }
  if (ts.isCallExpression(parent) && ts.isPropertyAccessExpression(parent.expression)) return parent.expression.name.text === "push";
  return false;
}

/** The codes some source file produces: a string literal naming the code anywhere but where `onlyNames` holds. */
function producedCodes(files: readonly string[]): Map<string, string[]> {
  const codes = new Set(Object.keys(ERROR_STATUS));
  const produced = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && codes.has(node.text) && !onlyNames(node)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        produced.set(node.text, [...(produced.get(node.text) ?? []), `${file}:${line}`]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return produced;
}

describe("the error code table", () => {
  it("holds only codes the platform raises: each is produced somewhere in lib/ or app/, not merely listed", () => {
    const produced = producedCodes(sourceFiles());
    expect(Object.keys(ERROR_STATUS).filter((code) => !produced.has(code))).toEqual([]);
  });

  it("tells a raised code from one only documented, compared or typed", () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? "/tmp"), "error-codes-"));
    try {
      const file = path.join(dir, "example.ts");
      fs.writeFileSync(
        file,
        [
          'type Reason = "not_found" | "session_expired";',
          'const errors = ["invalid_json", "payload_too_large"];',
          'errors.push("rate_limited");',
          'if (error.code === "invalid_cursor" || error.code !== "app_suspended") {}',
          'switch (code) { case "sandbox_only": break; }',
          'throw new ApiError("invalid_request", "refused");',
          'addApiIssue(ctx, flag ? "invalid_grant" : "invalid_duration", "refused");',
          'pathId("tfs_", { notFound: "session_not_found" });',
          "// A comment naming `internal_error` produces nothing.",
        ].join("\n"),
      );
      expect([...producedCodes([file]).keys()].sort()).toEqual(["invalid_duration", "invalid_grant", "invalid_request", "session_not_found"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
