import fc from "fast-check";
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from "@/lib/openapi";

/** One generated HTTP request, in the form the fuzz test sends and prints as a curl line. */
export type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: string };

/** What a generated request may carry to get past authentication and name rows that exist. */
export type FuzzCredentials = { authorizations: string[]; ids: string[] };

// Path, query and header values an attacker tries: traversal, injection, encodings Node or PostgreSQL choke on,
// template syntax, and lengths past any column.
export const HOSTILE_STRINGS = [
  "",
  " ",
  "..",
  "../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "%00",
  "\u0000",
  "1' OR '1'='1",
  "'; DROP TABLE subjects;--",
  "\\",
  '"',
  "<script>alert(1)</script>",
  "{{7*7}}",
  "${process.env.CHARTKEY_SECRET}",
  "__proto__",
  "constructor",
  "-1",
  "1e309",
  "NaN",
  "9".repeat(40),
  "\ud800",
  "😀".repeat(40),
  "a".repeat(5000),
  "u_" + "0".repeat(24),
  "null",
  "[]",
  "{}",
];

const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

type Components = OpenApiDocument["components"]["schemas"];

/** Values shaped by a JSON Schema as the OpenAPI documents write them (zod's output: objects, enums, anyOf, $ref). */
export function fromSchema(schema: JsonSchema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === "string") return fromSchema(components[s.$ref.split("/").pop() as string] ?? {}, components, depth + 1);
  if (depth > 6) return fc.constant(null);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((alternative) => fromSchema(alternative, components, depth + 1)));
  const example = s.example !== undefined ? [fc.constant(s.example)] : [];
  switch (s.type) {
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, fromSchema(property, components, depth + 1)]));
      return fc.record(shape, { requiredKeys: ((s.required ?? []) as string[]).filter((name) => name in shape) });
    }
    case "array":
      return fc.array(fromSchema((s.items ?? {}) as JsonSchema, components, depth + 1), { maxLength: 4 });
    case "string":
      return fc.oneof(...example, fc.string({ minLength: Number(s.minLength ?? 0), maxLength: Math.max(Number(s.minLength ?? 0), Math.min(Number(s.maxLength ?? 20), 40)) }));
    case "integer":
      return fc.oneof(...example, fc.integer({ min: Number(s.minimum ?? -10), max: Number(s.maximum ?? 100_000) }));
    case "number":
      return fc.oneof(...example, fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "boolean":
      return fc.boolean();
    default:
      return fc.oneof(...example, fc.jsonValue({ maxDepth: 2 }));
  }
}

/** A JSON value broken the ways clients break them: a key dropped or added, a value of the wrong type, `__proto__`. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  const record = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const keys = record ? Object.keys(record) : [];
  const wrong = fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostile, fc.constant(null), fc.integer(), fc.constant(Array(200).fill("x")));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(value) },
    { weight: 1, arbitrary: record && keys.length ? fc.constantFrom(...keys).map((drop) => Object.fromEntries(Object.entries(record).filter(([key]) => key !== drop))) : fc.constant(value) },
    { weight: 1, arbitrary: record && keys.length ? fc.tuple(fc.constantFrom(...keys), wrong).map(([key, replacement]) => ({ ...record, [key]: replacement })) : wrong },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("unknownField", "__proto__", "constructor"), wrong).map(([key, extra]) => ({ ...(record ?? {}), [key]: extra })) },
    { weight: 1, arbitrary: wrong },
  );
}

/** Characters PostgreSQL cannot store in text or jsonb: NUL and the lone halves of a UTF-16 surrogate pair. */
export const UNSTORABLE_CHARACTERS = ["\u0000", "\ud800", "\udbff", "\udc00", "\udfff"];

/** The paths of the strings in a JSON value, in document order. */
export function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringPaths(item, [...path, index]));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, key]));
  return [];
}

/** `value` with the string at `path` given `character` at `at` (clamped to its length); the rest unchanged. */
export function withCharacterAt(value: unknown, path: (string | number)[], character: string, at = Infinity): unknown {
  if (path.length === 0) {
    const text = value as string;
    const index = Math.min(at, text.length);
    return text.slice(0, index) + character + text.slice(index);
  }
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) }) as Record<string | number, unknown>;
  copy[key] = withCharacterAt(copy[key], rest, character, at);
  return copy;
}

/** A JSON value with NUL or a lone surrogate put into one of its strings, when it has any. */
function withUnstorableString(value: unknown): fc.Arbitrary<unknown> {
  const paths = stringPaths(value);
  if (paths.length === 0) return fc.constant(value);
  return fc.tuple(fc.constantFrom(...paths), fc.constantFrom(...UNSTORABLE_CHARACTERS), fc.nat()).map(([path, character, at]) => withCharacterAt(value, path, character, at));
}

/** A request body: mostly JSON shaped by the operation's schema (valid or mutated), sometimes no JSON at all. */
function requestBody(operation: OpenApiOperation, components: Components): fc.Arbitrary<string | undefined> {
  const media = operation.requestBody?.content["application/json"];
  // One shaped body in five carries text PostgreSQL cannot store in one of its strings.
  const shaped = (media ? fromSchema(media.schema, components).chain(mutated) : fc.jsonValue({ maxDepth: 2 })).chain((value) =>
    fc.oneof({ weight: 4, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: withUnstorableString(value) }),
  );
  return fc.oneof(
    { weight: 6, arbitrary: shaped.map((value) => JSON.stringify(value) ?? "null") },
    { weight: 1, arbitrary: fc.constantFrom(undefined, "", "{", "[1,", '{"a":1}{"b":2}', "\ufeff{}", '{"categories":["' + "x".repeat(70_000) + '"]}') },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 80 }) },
  );
}

function parameterValue(parameter: OpenApiParameter, ids: string[]): fc.Arbitrary<string> {
  const example = parameter.example ?? (parameter.schema as { example?: unknown }).example;
  const enumValues = (parameter.schema as { enum?: string[] }).enum ?? [];
  return fc.oneof(
    ...(example !== undefined ? [fc.constant(String(example))] : []),
    ...(enumValues.length ? [fc.constantFrom(...enumValues)] : []),
    ...(ids.length ? [fc.constantFrom(...ids)] : []),
    hostile,
  );
}

/** Path segments as raw escapes: NUL, and the bytes a lone surrogate would have if UTF-8 allowed it. */
export const RAW_UNSTORABLE_ESCAPES = ["%00", "u_%00", "a%00b", "%ED%A0%80", "%ED%BF%BF"];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/** Requests for one operation of a document served under `prefix`. */
function operationRequests(prefix: string, template: string, method: string, operation: OpenApiOperation, components: Components, credentials: FuzzCredentials) {
  const parameters = operation.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === "path");
  const queryParameters = parameters.filter((parameter) => parameter.in === "query");
  // A path value is sent percent-encoded, or now and then as raw escapes of NUL or of a lone surrogate's UTF-8-like
  // bytes (which no UTF-8 decoder accepts): encodeURIComponent cannot write those.
  const pathValue = (parameter: OpenApiParameter) =>
    fc.oneof(
      { weight: 9, arbitrary: parameterValue(parameter, credentials.ids).map((value) => encodeURIComponent(value.replace(/\p{Cs}/gu, "\ufffd"))) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_UNSTORABLE_ESCAPES) },
    );
  const path = fc.tuple(...pathParameters.map(pathValue)).map((values) =>
    pathParameters.reduce((built, parameter, index) => built.replace(`{${parameter.name}}`, values[index] as string), template),
  );
  const query = fc
    .tuple(
      ...queryParameters.map((parameter) => fc.option(parameterValue(parameter, credentials.ids), { nil: undefined })),
      fc.option(fc.tuple(hostile, hostile), { nil: undefined, freq: 8 }),
    )
    .map((values) => {
      const search = new URLSearchParams();
      queryParameters.forEach((parameter, index) => values[index] !== undefined && search.append(parameter.name, values[index] as string));
      const extra = values[queryParameters.length] as [string, string] | undefined;
      if (extra) search.append(extra[0], extra[1]);
      const text = search.toString();
      return text ? `?${text}` : "";
    });
  // Mostly authenticated, so the generated requests get past the key check to the handlers.
  const authorization = fc.option(
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...credentials.authorizations) }, { weight: 1, arbitrary: hostile.map((junk) => `Bearer ${junk}`) }, { weight: 1, arbitrary: hostile }),
    { nil: undefined, freq: 8 },
  );
  const contentType = fc.option(fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16"), { nil: undefined, freq: 6 });
  const idempotencyKey = fc.option(fc.oneof(fc.uuid(), hostile), { nil: undefined, freq: 3 });
  const ifMatch = fc.option(fc.oneof(fc.constantFrom('"1"', '"0"', "*", 'W/"1"'), hostile), { nil: undefined, freq: 4 });
  const forwardedFor = fc.oneof({ weight: 9, arbitrary: fc.ipV4() }, { weight: 1, arbitrary: fc.oneof(fc.ipV6(), hostile) });
  const headerValue = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?");
  return fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(method.toUpperCase()) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      path,
      query,
      authorization,
      contentType,
      idempotencyKey,
      ifMatch,
      forwardedFor,
      body: requestBody(operation, components),
    })
    .map((parts): FuzzRequest => {
      const headers: Record<string, string> = { "X-Forwarded-For": headerValue(parts.forwardedFor) };
      if (parts.authorization !== undefined) headers.Authorization = headerValue(parts.authorization);
      if (parts.contentType !== undefined) headers["Content-Type"] = parts.contentType;
      if (parts.idempotencyKey !== undefined) headers["Idempotency-Key"] = headerValue(parts.idempotencyKey);
      if (parts.ifMatch !== undefined) headers["If-Match"] = headerValue(parts.ifMatch);
      const hasBody = !["GET", "HEAD"].includes(parts.method) && parts.body !== undefined;
      return { method: parts.method, path: prefix + parts.path + parts.query, headers, ...(hasBody ? { body: parts.body } : {}) };
    });
}

/** Requests over every operation of the documents, each weighted alike. */
export function documentRequests(documents: { prefix: string; document: OpenApiDocument }[], credentials: FuzzCredentials): fc.Arbitrary<FuzzRequest> {
  const perOperation = documents.flatMap(({ prefix, document }) =>
    Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.entries(operations ?? {}).map(([method, operation]) => operationRequests(prefix, template, method, operation, document.components.schemas, credentials)),
    ),
  );
  return fc.oneof(...perOperation);
}

/** A request as a shell line that repeats it. */
export function curlLine(origin: string, request: FuzzRequest): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(request.headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`);
  const body = request.body !== undefined ? [`--data-binary ${quote(request.body.length > 2000 ? request.body.slice(0, 2000) + "…" : request.body)}`] : [];
  const method = request.method === "HEAD" ? ["curl -I"] : ["curl -i -X", request.method];
  return [...method, ...headers, ...body, "--path-as-is", quote(origin + request.path)].join(" ");
}

/** One deterministic request of the unstorable-text pass, and what it puts where. */
export type UnstorableRequest = { request: FuzzRequest; where: "body" | "path" | "query"; field: string };

/**
 * For every operation of the documents, valid requests (the documented examples, else a value shaped by the schema
 * with a fixed seed) each with one value holding text PostgreSQL cannot store: NUL at the end of each string of the
 * body in turn and one lone surrogate in the first, `%00` in each path parameter, NUL in each query parameter.
 */
export function unstorableRequests(documents: { prefix: string; document: OpenApiDocument }[], authorization: string): UnstorableRequest[] {
  const requests: UnstorableRequest[] = [];
  for (const { prefix, document } of documents) {
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations ?? {})) {
        const parameters = operation.parameters ?? [];
        const exampleOf = (parameter: OpenApiParameter) => String(parameter.example ?? (parameter.schema as { example?: unknown }).example ?? "x");
        const pathWith = (name: string | null) =>
          parameters.filter((parameter) => parameter.in === "path").reduce((built, parameter) => built.replace(`{${parameter.name}}`, parameter.name === name ? "a%00b" : encodeURIComponent(exampleOf(parameter))), template);
        const queryWith = (name: string | null) => {
          const search = new URLSearchParams();
          for (const parameter of parameters) if (parameter.in === "query" && (parameter.required || parameter.name === name)) search.append(parameter.name, parameter.name === name ? `${exampleOf(parameter)}\u0000` : exampleOf(parameter));
          const text = search.toString();
          return text ? `?${text}` : "";
        };
        const media = operation.requestBody?.content["application/json"];
        const example = media ? (media.example ?? fc.sample(fromSchema(media.schema, document.components.schemas), { seed: 1, numRuns: 1 })[0]) : undefined;
        const headers = { Authorization: authorization, ...(media ? { "Content-Type": "application/json" } : {}) };
        const send = (path: string, query: string, body: unknown, where: UnstorableRequest["where"], field: string) =>
          requests.push({ request: { method: method.toUpperCase(), path: prefix + path + query, headers, ...(media ? { body: JSON.stringify(body) } : {}) }, where, field });

        const paths = media ? stringPaths(example) : [];
        paths.forEach((path, index) => {
          send(pathWith(null), queryWith(null), withCharacterAt(example, path, "\u0000"), "body", path.join("."));
          if (index === 0) send(pathWith(null), queryWith(null), withCharacterAt(example, path, "\ud800", 0), "body", path.join("."));
        });
        for (const parameter of parameters) {
          if (parameter.in === "path") send(pathWith(parameter.name), queryWith(null), example, "path", parameter.name);
          if (parameter.in === "query") send(pathWith(null), queryWith(parameter.name), example, "query", parameter.name);
        }
      }
    }
  }
  return requests;
}
