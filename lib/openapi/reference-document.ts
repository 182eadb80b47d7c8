import { ERROR_STATUS, errorTypeForStatus, type ErrorCode } from "@/lib/http";
import { getDemoOpenApi } from "./demo-document";
import type { OpenApiDocument, OpenApiMethod, OpenApiOperation } from "./document-types";
import { getPlatformOpenApi } from "./platform-document";

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
  const document = structuredClone(key === "platform" ? getPlatformOpenApi() : getDemoOpenApi());
  document.info.description = `${document.info.description}\n\n${errorCodesMarkdown(document)}`;
  // The introduction's language tabs (Scalar's x-scalar-sdk-installation), in the samples' order; picking one picks
  // the same language in every operation's samples.
  (document.info as OpenApiDocument["info"] & { "x-scalar-sdk-installation": { lang: string; description: string; source?: string }[] })["x-scalar-sdk-installation"] = [
    ...(key === "platform"
      ? [{ lang: "typescript", description: "**@chartkey/sdk**, the TypeScript SDK: typed operations, pagination, retries and webhook verification.", source: "npm install @chartkey/sdk" }]
      : []),
    { lang: "curl", description: key === "platform" ? "**curl**: plain HTTP, with your sandbox key as a bearer token." : "**curl**: plain HTTP, no key.", source: key === "platform" ? "export CK_SANDBOX_KEY=ck_test_..." : undefined },
    { lang: "python", description: "**Python** with requests.", source: "pip install requests" },
    { lang: "go", description: "**Go** with the standard library's net/http: nothing to install." },
  ];
  const base = `${SAMPLE_ORIGIN}${document.servers[0]?.url ?? ""}`;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [OpenApiMethod, OpenApiOperation][]) {
      const request = sampleRequest(base, path, method, operation, exampleBody(document, operation), key === "platform" && operation.security?.length !== 0);
      (operation as OpenApiOperation & { "x-codeSamples": CodeSample[] })["x-codeSamples"] = [
        ...(key === "platform" ? [{ lang: "typescript", label: SAMPLE_LABELS.sdk, source: sdkSample(path, method, operation) }] : []),
        { lang: "curl", label: SAMPLE_LABELS.curl, source: curlSample(request) },
        { lang: "python", label: SAMPLE_LABELS.python, source: pythonSample(request) },
        { lang: "go", label: SAMPLE_LABELS.go, source: goSample(request) },
      ];
    }
  }
  return document;
}

/**
 * The languages the reference offers, in this order: the TypeScript SDK (keyed API only), then plain HTTP in curl,
 * Python (requests) and Go (net/http). They are the document's own samples (`x-codeSamples`); the /docs page hides
 * Scalar's generated clients, so no language the product does not support is offered.
 */
export const SAMPLE_LABELS = { sdk: "@chartkey/sdk", curl: "curl", python: "Python (requests)", go: "Go (net/http)" } as const;

/** The origin samples call: the SDK's default, a local `npm run dev`. */
const SAMPLE_ORIGIN = "http://localhost:3000";

type SampleRequest = { method: string; url: string; headers: [string, string][]; body: unknown; authenticated: boolean };

/**
 * The request body a sample sends: the document's example, else the schema's required properties with their
 * examples (what the SDK sample sends too).
 */
function exampleBody(document: OpenApiDocument, operation: OpenApiOperation): unknown {
  const media = operation.requestBody?.content["application/json"];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const ref = (media.schema as { $ref?: string }).$ref;
  const schema = (ref ? document.components.schemas[ref.replace("#/components/schemas/", "")] : media.schema) as {
    properties?: Record<string, { example?: unknown; enum?: unknown[] }>;
    required?: string[];
  };
  return Object.fromEntries((schema?.required ?? []).map((name) => [name, schema.properties?.[name]?.example ?? schema.properties?.[name]?.enum?.[0] ?? `<${name}>`]));
}

function sampleRequest(base: string, path: string, method: OpenApiMethod, operation: OpenApiOperation, body: unknown, authenticated: boolean): SampleRequest {
  const { path: p, query, header } = exampleParams(operation);
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(p[name] ?? `<${name}>`)).replace(/%3C|%3E/g, (c) => (c === "%3C" ? "<" : ">")));
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
  return {
    method: method.toUpperCase(),
    url: `${base}${filled}${search ? `?${search}` : ""}`,
    headers: [...Object.entries(header).map(([name, value]) => [name, String(value)] as [string, string]), ...(body !== undefined ? [["Content-Type", "application/json"] as [string, string]] : [])],
    body,
    authenticated,
  };
}

const quoteShell = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

function curlSample(request: SampleRequest): string {
  const lines = [`curl${request.method === "GET" ? "" : ` -X ${request.method}`} ${quoteShell(request.url)}`];
  if (request.authenticated) lines.push('-H "Authorization: Bearer $CK_SANDBOX_KEY"');
  for (const [name, value] of request.headers) lines.push(`-H ${quoteShell(`${name}: ${value}`)}`);
  if (request.body !== undefined) lines.push(`-d ${quoteShell(JSON.stringify(request.body))}`);
  return lines.join(" \\\n  ");
}

/** A JSON value as a Python literal (true/false/null become True/False/None). */
function pythonLiteral(value: unknown, indent = ""): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[\n${value.map((item) => `${indent}    ${pythonLiteral(item, `${indent}    `)}`).join(",\n")},\n${indent}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? "{}" : `{\n${entries.map(([key, item]) => `${indent}    ${JSON.stringify(key)}: ${pythonLiteral(item, `${indent}    `)}`).join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value);
}

function pythonSample(request: SampleRequest): string {
  const headers = [...(request.authenticated ? ['"Authorization": f"Bearer {os.environ[\'CK_SANDBOX_KEY\']}"'] : []), ...request.headers.filter(([name]) => name !== "Content-Type").map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`)];
  const args = [JSON.stringify(request.url), ...(headers.length > 0 ? [`headers={${headers.join(", ")}}`] : []), ...(request.body !== undefined ? [`json=${pythonLiteral(request.body, "    ")}`] : [])];
  return [
    ...(request.authenticated ? ["import os", ""] : []),
    "import requests",
    "",
    `response = requests.request(\n    ${JSON.stringify(request.method)},\n    ${args.join(",\n    ")},\n)`,
    "# An error answers { error: { type, code, message, requestId } }: branch on its code.",
    "response.raise_for_status()",
    "print(response.json())",
  ].join("\n");
}

function goSample(request: SampleRequest): string {
  const body = request.body !== undefined ? `strings.NewReader(${"`"}${JSON.stringify(request.body, null, 2).replace(/`/g, "` + \"`\" + `")}${"`"})` : "nil";
  const headers = [
    ...(request.authenticated ? ['\treq.Header.Set("Authorization", "Bearer "+os.Getenv("CK_SANDBOX_KEY"))'] : []),
    ...request.headers.map(([name, value]) => `\treq.Header.Set(${JSON.stringify(name)}, ${JSON.stringify(value)})`),
  ];
  const imports = ["fmt", "io", "net/http", ...(request.authenticated ? ["os"] : []), ...(request.body !== undefined ? ["strings"] : [])];
  return [
    "package main",
    "",
    `import (\n${imports.map((name) => `\t${JSON.stringify(name)}`).join("\n")}\n)`,
    "",
    "func main() {",
    `\treq, err := http.NewRequest(${JSON.stringify(request.method)}, ${JSON.stringify(request.url)}, ${body})`,
    "\tif err != nil {\n\t\tpanic(err)\n\t}",
    ...headers,
    "\tres, err := http.DefaultClient.Do(req)",
    "\tif err != nil {\n\t\tpanic(err)\n\t}",
    "\tdefer res.Body.Close()",
    "\tbody, _ := io.ReadAll(res.Body)",
    "\t// An error answers { error: { type, code, message, requestId } }: branch on its code.",
    "\tfmt.Println(res.Status, string(body))",
    "}",
  ].join("\n");
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
