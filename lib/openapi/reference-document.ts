import { ERROR_STATUS, errorTypeForStatus, type ErrorCode } from "@/lib/http";
import { demoOpenApiDocument } from "./demo-document";
import type { OpenApiDocument, OpenApiMethod, OpenApiOperation } from "./document-types";
import { platformOpenApiDocument } from "./platform-document";

/** A request sample the reference shows beside the generated clients (Scalar reads `x-codeSamples`). */
export type CodeSample = { lang: string; label: string; source: string };

export type ReferenceDocumentKey = "platform" | "demo";

/**
 * A document as the /docs reference shows it: the served document plus what a reader needs beside it, all derived
 * from the same declarations: the error code table (every code the document's operations answer, with its status,
 * envelope type and the operations that answer it) appended to the description, and for the keyed API a
 * TypeScript sample per operation that uses @chartkey/sdk.
 */
export function referenceDocument(key: ReferenceDocumentKey): OpenApiDocument {
  const document = structuredClone(key === "platform" ? platformOpenApiDocument() : demoOpenApiDocument());
  document.info.description = `${document.info.description}\n\n${errorCodesMarkdown(document)}`;
  if (key === "platform") {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item) as [OpenApiMethod, OpenApiOperation][]) {
        (operation as OpenApiOperation & { "x-codeSamples": CodeSample[] })["x-codeSamples"] = [
          { lang: "typescript", label: "@chartkey/sdk", source: sdkSample(path, method, operation) },
        ];
      }
    }
  }
  return document;
}

/** The "Errors" section: one row per code the document's operations declare, in the error table's order. */
export function errorCodesMarkdown(document: OpenApiDocument): string {
  const operationsByCode = new Map<string, string[]>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as OpenApiOperation[]) {
      for (const response of Object.values(operation.responses)) {
        for (const code of response["x-error-codes"] ?? []) operationsByCode.set(code, [...(operationsByCode.get(code) ?? []), operation.operationId]);
      }
    }
  }
  const rows = (Object.keys(ERROR_STATUS) as ErrorCode[])
    .filter((code) => operationsByCode.has(code))
    .map((code) => {
      const operations = operationsByCode.get(code) ?? [];
      const where = operations.length > 6 ? `${operations.length} operations` : operations.map((id) => `\`${id}\``).join(", ");
      return `| \`${code}\` | ${ERROR_STATUS[code]} | \`${errorTypeForStatus(ERROR_STATUS[code])}\` | ${where} |`;
    });
  return [
    "## Errors",
    "",
    "Every error answers `{ error: { type, code, message, requestId } }`. Branch on `code`, never on `message`; handle a code you do " +
      "not know by its HTTP status. A 429 carries `Retry-After` (seconds): wait that long, then retry (the SDK does). So does a 503 " +
      "`database_unavailable` (the database did not answer in time): retry after it, with backoff.",
    "",
    "| Code | Status | Type | Answered by |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}

type Params = { path: Record<string, unknown>; query: Record<string, unknown>; header: Record<string, unknown> };

function exampleParams(operation: OpenApiOperation): Params {
  const params: Params = { path: {}, query: {}, header: {} };
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === "header" && !parameter.required) continue;
    const value = parameter.example ?? (parameter.required ? `<${parameter.name}>` : undefined);
    if (value !== undefined) params[parameter.in][parameter.name] = value;
  }
  return params;
}

const literal = (value: unknown) => JSON.stringify(value, null, 2).replace(/\n/g, "\n  ");
const setup = (names: string) => `import { ${names} } from "@chartkey/sdk";\n\nconst chartkey = new Chartkey({ apiKey: process.env.CK_SANDBOX_KEY! });\n\n`;

/**
 * The operation through the SDK: its helper where it has one, else the typed `chartkey.api` client with the
 * document's own examples. Either way an error answer is thrown as a ChartkeyError, typed by code.
 */
function sdkSample(path: string, method: OpenApiMethod, operation: OpenApiOperation): string {
  const { path: p, query } = exampleParams(operation);
  const body = operation.requestBody?.content["application/json"]?.example;
  const s = (value: unknown) => JSON.stringify(value);
  const helpers: Record<string, () => string> = {
    getApp: () => "const app = await chartkey.app();\nconsole.log(app.environment);",
    createConnectSession: () =>
      `// An Idempotency-Key is sent for you (the same one on every retry); pass your own to make it safe across restarts.\nconst session = await chartkey.createConnectSession(${literal(body ?? { categories: ["medications", "labs"] })});\n// Send the patient to session.connectUrl.`,
    getConnectSession: () => `const session = await chartkey.getConnectSession(${s(p.sessionId)});`,
    cancelConnectSession: () => `const session = await chartkey.cancelConnectSession(${s(p.sessionId)});`,
    listUsers: () => "for await (const user of chartkey.users()) {\n  console.log(user.id, user.categories);\n}",
    getHealthRecord: () => `const snapshot = await chartkey.getRecords(${s(p.subject)}, { categories: ["labs", "medications"] });`,
    listCategoryRecords: () =>
      `// A full read, page by page; save the cursor it answers with your records.\nconst { cursor } = await chartkey.syncCategory(${s(p.subject)}, ${s(p.category)}, {\n  upsert: (recordId, record) => store.put(recordId, record),\n  remove: (recordId) => store.delete(recordId),\n});`,
    listRecordChanges: () =>
      `// Only what changed since the saved cursor, in sequence order; deletions arrive as remove().\nconst { cursor } = await chartkey.syncCategory(${s(p.subject)}, ${s(p.category)}, {\n  cursor: savedCursor,\n  upsert: (recordId, record) => store.put(recordId, record),\n  remove: (recordId) => store.delete(recordId),\n  saveCursor: (next) => store.saveCursor(next),\n});`,
    getConsentReceipt: () => `const receipt = await chartkey.getConsent(${s(p.receiptId)});`,
    simulateConnectSession: () => `const session = await chartkey.simulateConnectSession(${s(p.sessionId)}, ${s((body as { scenario?: string } | undefined)?.scenario ?? "baseline-adult")});`,
    triggerSandboxEvent: () => `const result = await chartkey.sandboxEvent(${s(p.subject)}, ${literal(body ?? { type: "records.advance" })});`,
  };
  const helper = helpers[operation.operationId];
  if (helper) return setup("Chartkey") + helper();
  const options = [
    Object.keys(p).length > 0 || Object.keys(query).length > 0
      ? `params: { ${[Object.keys(p).length > 0 ? `path: ${s(p)}` : "", Object.keys(query).length > 0 ? `query: ${s(query)}` : ""].filter(Boolean).join(", ")} }`
      : "",
    body !== undefined ? `body: ${literal(body)}` : "",
  ].filter(Boolean);
  const call = `chartkey.api.${method.toUpperCase()}(${s(path)}${options.length > 0 ? `, {\n  ${options.join(",\n  ")},\n}` : ""})`;
  // unwrap: the answer's data, or the error thrown as a ChartkeyError (typed by code).
  return `${setup("Chartkey, unwrap")}const result = await unwrap(${call});`;
}
