import { Agent, request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorTypeForStatus, ERROR_STATUS } from "@/lib/http";
import { getDemoOpenApi, getPlatformOpenApi, type OpenApiDocument } from "@/lib/openapi";
import { canonicalPath, splitTarget } from "@/lib/server";
import { subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { curlLine, documentRequests, unstorableRequests, type FuzzRequest } from "@/test/openapi-requests";

// Property-based fuzzing over both OpenAPI documents: RUNS generated requests (every documented operation, path
// parameters from real ids and hostile strings, queries, bodies shaped from the request schemas then broken,
// Authorization, Content-Type, Idempotency-Key and If-Match variants, other methods) sent over real HTTP to the
// platform server, each answer held to the contract: no 5xx but a documented 503, the error envelope with the
// type its status implies, Request-Id and Service-Version on /api/v1, and nothing leaked. The seed is printed;
// FUZZ_SEED=<seed> repeats a run, FUZZ_RUNS changes its size. A failure is shrunk by fast-check and printed as curl.
//
// Size: 3,000 requests per run, 10,000 with CHARTKEY_TEST_FULL=1. The generator picks one of the documents'
// operations (43 today) uniformly, so 3,000 gives each about 70 requests; a variant drawn one time in nine or more
// often (another method, a hostile Authorization, a broken body) is then missed for a given operation with
// probability (8/9)^70 < 0.03%, so a run reaches every operation with every kind of variant, and each run draws a
// new seed, so the values themselves differ from run to run. 10,000 took 25 s of a 47 s file on 2 cores; 3,000 takes
// about 8 s.

const FULL = process.env.CHARTKEY_TEST_FULL === "1";
const RUNS = Number(process.env.FUZZ_RUNS ?? (FULL ? 10_000 : 3_000));
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 12;
const ANSWER_TIMEOUT_MS = 20_000;

// The limits are raised so the generated requests reach the handlers instead of all ending as 429 after the
// first few hundred (the limits have their own tests); set before the modules that read them are imported.
const raisedLimits = vi.hoisted(() => {
  const limits = { CHARTKEY_RATE_LIMIT_PER_MINUTE: "1000000", CHARTKEY_AUTH_FAILURES_PER_MINUTE: "1000000", CHARTKEY_AGENT_RATE_LIMIT_PER_MINUTE: "1000000" };
  const before = Object.fromEntries(Object.keys(limits).map((name) => [name, process.env[name]]));
  Object.assign(process.env, limits);
  return before;
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

const documents: { prefix: string; document: OpenApiDocument }[] = [
  { prefix: "/api/v1", document: getPlatformOpenApi() },
  { prefix: "/demo/v1", document: getDemoOpenApi() },
];

/** The codes a 503 may carry: those the documents list under a 503 response. */
const documented503Codes = new Set(
  documents.flatMap(({ document }) =>
    Object.values(document.paths).flatMap((operations) => Object.values(operations ?? {}).flatMap((operation) => operation.responses["503"]?.["x-error-codes"] ?? [])),
  ),
);

let server: Awaited<ReturnType<typeof startApiServer>>;
let secrets: string[];
let sandboxAuthorization: string;
let property: fc.IAsyncPropertyWithHooks<[FuzzRequest]>;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(fuzzed: FuzzRequest): Promise<Answer> {
  // Framed with Content-Length: Node sends a DELETE or OPTIONS body without one, which the server must read as
  // the next request on the connection (that case has its own test in lib/server/platform-server.test.ts).
  const headers = fuzzed.body === undefined ? fuzzed.headers : { ...fuzzed.headers, "Content-Length": String(Buffer.byteLength(fuzzed.body)) };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port: server.port, agent, method: fuzzed.method, path: fuzzed.path, headers, timeout: ANSWER_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    outgoing.on("error", reject);
    outgoing.end(fuzzed.body);
  });
}

const LEAKS: [string, RegExp][] = [
  ["a stack trace", /\bat (?:async )?[\w$.<>]+ \(?(?:file:\/\/|\/|node:)[^)\n]*:\d+:\d+/],
  ["SQL or database text", /syntax error at or near|invalid input syntax|violates [\w ]*constraint|duplicate key value|relation "[^"]+"|\bprisma\b|\bSELECT\b[^"]{0,200}\bFROM\b|\bINSERT INTO\b/i],
  ["a server file path", /node_modules|\/work\/|\/home\/|\/usr\/|\.tsx?:\d+/],
];

/**
 * The API a request is for, judged by its path as the server reads it (`servedPath`: dot segments resolved, as URL
 * parsing does): a hostile id of `..` can climb out of the API, and `/demo/v1/fhir/../..` is the page path `/demo`,
 * answered as a page. Null for a path outside both APIs, which is held only to "no 5xx and nothing leaked".
 */
function apiAt(path: string): string | null {
  return documents.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.prefix ?? null;
}

/** The request's path as the server reads it: the query left off, dot segments resolved. */
function servedPath(fuzzed: FuzzRequest): string {
  return canonicalPath(splitTarget(fuzzed.path).pathname);
}

/** Why an answer breaks the contract, or null when it holds. */
function violation(fuzzed: FuzzRequest, answer: Answer): string | null {
  const { status, headers, body } = answer;
  if (status >= 500 && !(status === 503 && documented503Codes.has(errorCode(body) ?? ""))) return `answered ${status}`;
  const path = servedPath(fuzzed);
  const api = apiAt(path);
  if (api && !headers["request-id"]) return "no Request-Id header";
  if (api === "/api/v1" && !headers["service-version"]) return "no Service-Version header";
  // Over MCP a refused request may be a JSON-RPC error under its HTTP status (the spec, MCP tools).
  const jsonRpcRefusal = path.endsWith("/mcp") && isJsonRpcError(body);
  if (api && status >= 400 && fuzzed.method !== "HEAD" && !jsonRpcRefusal) {
    let envelope: { error?: Record<string, unknown>; resourceType?: unknown; issue?: { details?: { coding?: { code?: unknown }[] } }[] };
    try {
      envelope = JSON.parse(body) as typeof envelope;
    } catch {
      return `error ${status} is not JSON`;
    }
    // The FHIR API's errors are OperationOutcome resources carrying the code in issue.details (issue 52).
    if (path.startsWith("/api/v1/fhir/") && envelope.resourceType === "OperationOutcome") {
      const code = envelope.issue?.[0]?.details?.coding?.[0]?.code;
      if (typeof code !== "string" || !(code in ERROR_STATUS)) return `OperationOutcome ${status} without a documented code`;
      return null;
    }
    const error = envelope.error;
    if (!error || ["type", "code", "message", "requestId"].some((field) => typeof error[field] !== "string")) return `error ${status} outside the envelope`;
    if (error.type !== errorTypeForStatus(status)) return `error type ${String(error.type)} under status ${status}`;
    if (!(String(error.code) in ERROR_STATUS)) return `undocumented error code ${String(error.code)}`;
  }
  for (const [what, pattern] of LEAKS) if (pattern.test(body)) return `the body holds ${what}: ${pattern.exec(body)?.[0]}`;
  if (secrets.some((secret) => body.includes(secret))) return "the body holds a key, token or CHARTKEY_SECRET";
  return null;
}

function isJsonRpcError(body: string): boolean {
  try {
    const message = JSON.parse(body) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    return message.jsonrpc === "2.0" && typeof message.error?.code === "number" && typeof message.error.message === "string";
  } catch {
    return false;
  }
}

function errorCode(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/** The answer's status (0: none) and why it breaks the contract, or null when it holds. */
async function holds(fuzzed: FuzzRequest): Promise<{ status: number; problem: string | null }> {
  try {
    const answer = await send(fuzzed);
    return { status: answer.status, problem: violation(fuzzed, answer) };
  } catch (error) {
    return { status: 0, problem: `no answer: ${(error as Error).message}` };
  }
}

beforeAll(async () => {
  // Behind one trusted proxy, so each request can come from its own address (X-Forwarded-For, generated): the
  // demo's per-address limit would otherwise answer all but the first 120 demo requests with 429.
  server = await startApiServer({ trustedProxyHops: 1 });
  const seeded = await subjectWithCredential(server.origin, { categories: ["medications", "labs"] });
  const session = await request(server.origin, "POST", "/api/v1/connect/sessions", { token: seeded.sandboxKey, body: { categories: ["medications"] } });
  const sessionId = typeof session.body.id === "string" ? [session.body.id] : [];
  const { sandboxKey, liveKey } = seeded;
  const token = seeded.credential.token;
  secrets = [sandboxKey, liveKey, token, process.env.CHARTKEY_SECRET as string];
  sandboxAuthorization = `Bearer ${sandboxKey}`;
  const credentials = {
    authorizations: [`Bearer ${sandboxKey}`, `Bearer ${sandboxKey}`, `Bearer ${sandboxKey}`, `Bearer ${token}`, `Bearer ${liveKey}`, `Bearer ${token}`, `bearer ${sandboxKey}`, `Bearer  ${sandboxKey} `, sandboxKey, `Bearer ${sandboxKey.slice(0, -1)}`, `Basic ${btoa(`${sandboxKey}:`)}`],
    ids: [seeded.subject.id, seeded.receipt.id, seeded.credential.id, ...sessionId],
  };
  property = fc.asyncProperty(documentRequests(documents, credentials), async (fuzzed) => {
    const { problem } = await holds(fuzzed);
    if (problem) throw new Error(problem);
  });
}, 120_000);

afterAll(async () => {
  agent.destroy();
  await server?.close();
  for (const [name, value] of Object.entries(raisedLimits)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Runs `work` over `items` with at most `limit` in flight. */
async function boundedMap<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

describe("generated requests over both OpenAPI documents", () => {
  it("holds a request to the API contract by where its path resolves, as the server reads it", async () => {
    const at = (path: string) => apiAt(servedPath({ method: "GET", path, headers: {} }));
    expect(at("/demo/v1/fhir/../..")).toBeNull();
    expect(at("/api/v1/users/%2e%2e/%2E%2E/..?x=1")).toBeNull();
    expect(at("/demo/v1/fhir/Patient/../../health")).toBe("/demo/v1");
    expect(at("/api/v1/users/../app?limit=1")).toBe("/api/v1");
    // Climbing out of the API meets a page (here the test server's bare 404, which is not JSON): the contract left
    // for it is no 5xx and nothing leaked.
    const escaped = { method: "GET", path: "/demo/v1/fhir/../..", headers: {} };
    const answer = await send(escaped);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers["content-security-policy"], "a page's policy").toMatch(/nonce-/);
    expect(answer.headers["request-id"]).toBeUndefined();
    expect(violation(escaped, answer)).toBeNull();
  });

  it("every string of every operation's example body, and every path and query value, holding NUL once: refused with a 4xx, by the boundary unless an earlier check refused it", async () => {
    // Before the generated requests, which change what the seeded key reaches (credentials revoked, runs opened).
    const cases = unstorableRequests(documents, sandboxAuthorization);
    const answers = await boundedMap(cases, CONCURRENCY, async ({ request: fuzzed }) => ({ fuzzed, answer: await send(fuzzed) }));
    const problems = answers.flatMap(({ fuzzed, answer }, index) => {
      const { where, field } = cases[index]!;
      const problem = violation(fuzzed, answer) ?? (answer.status < 400 || answer.status >= 500 ? `answered ${answer.status}` : null) ?? refusedAsUnstorable(where, field, answer);
      return problem ? [`${where} ${field}: ${problem}\n  ${curlLine(server.origin, fuzzed)}`] : [];
    });
    const byBoundary = answers.filter(({ answer }) => answer.body.includes("cannot be stored")).length;
    const statuses = [...new Set(answers.map(({ answer }) => answer.status))].sort().map((status) => `${status}: ${answers.filter(({ answer }) => answer.status === status).length}`);
    console.info(`openapi fuzz: ${cases.length} requests with NUL or a lone surrogate in one value each (${statuses.join(", ")}), ${byBoundary} refused for it by name`);
    expect(problems).toEqual([]);
  }, 300_000);

  it(`${RUNS} requests: no 5xx, the envelope on every error, the headers, no leak`, async () => {
    console.info(`openapi fuzz: seed ${SEED}, ${RUNS} requests (repeat with FUZZ_SEED=${SEED})`);
    const started = Date.now();
    // The values fast-check's runner would try, in its order: sent in parallel, then the failures replayed by
    // path one at a time so fast-check shrinks each.
    const generated = fc.sample(property, { seed: SEED, numRuns: RUNS });
    const outcomes = await boundedMap(generated, CONCURRENCY, ([fuzzed]) => holds(fuzzed));
    const problems = outcomes.map((outcome) => outcome.problem);
    const failing = problems.flatMap((problem, index) => (problem ? [index] : []));
    const counts = new Map<number, number>();
    for (const { status } of outcomes) counts.set(status, (counts.get(status) ?? 0) + 1);
    const statuses = [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
    console.info(`openapi fuzz: ${RUNS} answers in ${Math.round((Date.now() - started) / 1000)} s (${statuses.join(", ")}), ${failing.length} breaking the contract`);

    const reports: string[] = [];
    for (const index of failing.slice(0, 5)) {
      const details = await fc.check(property, { seed: SEED, path: String(index), numRuns: 1 });
      const [shrunk] = details.counterexample ?? generated[index] ?? [];
      const problem = details.errorInstance instanceof Error ? details.errorInstance.message : problems[index];
      if (shrunk) reports.push(`${problem} (seed ${SEED}, path ${details.counterexamplePath ?? index})\n  ${curlLine(server.origin, shrunk)}`);
    }
    expect(reports, `requests breaking the contract:\n${reports.join("\n")}`).toEqual([]);
    expect(failing).toEqual([]);
  }, 600_000);
});

/**
 * Why an answer to a value holding NUL or a lone surrogate is not the boundary's refusal: a body field or query
 * parameter gets 400 invalid_request naming it, a path value 404 not_found, unless an earlier check (the key, a
 * schema's own refusal of the value) answered first with its own 4xx.
 */
function refusedAsUnstorable(where: "body" | "path" | "query", field: string, answer: Answer): string | null {
  let body: { error?: { code?: string; message?: string; data?: { error?: { code?: string; message?: string } } } };
  try {
    body = JSON.parse(answer.body) as typeof body;
  } catch {
    return null;
  }
  // Over MCP the refusal is a JSON-RPC error carrying the envelope as its data.
  const error = body.error?.data?.error ?? body.error;
  if (!error?.message?.includes("cannot be stored")) return null;
  if (where === "path") return error.code === "not_found" ? null : `a path value refused as ${String(error.code)}`;
  if (error.code !== "invalid_request" || answer.status !== 400) return `refused as ${answer.status} ${String(error.code)}`;
  return error.message.includes(field) ? null : `the message does not name ${field}: ${error.message}`;
}
