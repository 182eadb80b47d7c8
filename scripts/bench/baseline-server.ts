// The bench's baseline: a bare node:http server that answers the benchmarked /api/v1 endpoints with the work they
// need and nothing else, through `pg` directly: the key lookup by SHA-256 hash, the per-key rate limit consumed in
// PostgreSQL with rate-limiter-flexible's RateLimiterPostgres on the platform's `rate_limits` table (committed, as
// the platform commits it, without waiting for the disk), the consent check, and the same record SQL, answering the
// same JSON (cursors signed the same way, so the platform accepts them). No framework, no ORM, no logging. Under
// /floor it also serves the reads' floors (floorAnswer). It serves only what the bench sends and is not part of the
// product.
//
// Usage: DATABASE_URL=... CHARTKEY_SECRET=... PORT=... tsx scripts/bench/baseline-server.ts
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
// The one piece of the platform it reuses: the pure function that shapes a stored import report for the snapshot.
import { presentFidelityReport, type Category } from "@/lib/records";

// The ten categories in response order (lib/records/categories.ts); the bench checks both servers answer alike.
const CATEGORIES = ["demographics", "conditions", "medications", "allergies", "immunizations", "labs", "vitals", "procedures", "documents", "claims"];
const SECTION_RECORDS = 1000;
const SCHEMA_VERSION = 2;
const POINTS = Number(process.env.CHARTKEY_RATE_LIMIT_PER_MINUTE ?? 300);
const WINDOW_SECONDS = 60;

// Prisma stores DateTime as timestamp(3) without time zone, in UTC.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (text) => new Date(`${text.replace(" ", "T")}Z`));

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
pool.on("error", () => {});
// The limiter's windows committed as the platform commits them: without waiting for the disk (lib/db counterPool).
const counters = new pg.Pool({ connectionString: process.env.DATABASE_URL, options: "-c synchronous_commit=off", max: 10 });
counters.on("error", () => {});
const limiter = new RateLimiterPostgres({
  storeClient: counters,
  storeType: "pool",
  tableName: "rate_limits",
  tableCreated: true,
  clearExpiredByTimeout: false,
  keyPrefix: "key",
  points: POINTS,
  duration: WINDOW_SECONDS,
});
const secret = process.env.CHARTKEY_SECRET ?? "";
if (secret.length < 32) throw new Error("CHARTKEY_SECRET must be set to at least 32 characters");
const cursorKey = Buffer.from(hkdfSync("sha256", secret, "chartkey", "cursor-signing", 32));

type Key = { id: string; environment: "sandbox" | "live"; app: { id: string; name: string; status: string; productionEnabled: boolean; categoryAllowlist: string[]; syncMode: string } };
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const KEY_PATTERN = /^ck_(test|live)_[A-Za-z0-9_-]{43}$/;

async function authenticate(authorization: string | undefined): Promise<Key> {
  const token = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (!token) throw new Refusal(401, "missing_api_key", "Send your API key as `Authorization: Bearer <API_KEY>`.");
  const match = KEY_PATTERN.exec(token);
  const invalid = new Refusal(401, "invalid_api_key", "The API key is unknown, revoked or malformed.");
  if (!match) throw invalid;
  const environment = match[1] === "test" ? "sandbox" : "live";
  const secretHash = createHash("sha256").update(token).digest("hex");
  const { rows } = await pool.query({
    name: "key",
    text: `SELECT k.id, k."secretHash", k.environment, k."revokedAt", a.id AS "appId", a.name, a.status, a."productionEnabled", a."categoryAllowlist", a."syncMode"
           FROM "ApiKey" k JOIN "Application" a ON a.id = k."applicationId" WHERE k."secretHash" = $1`,
    values: [secretHash],
  });
  const row = rows[0];
  if (!row || !timingSafeEqual(Buffer.from(row.secretHash), Buffer.from(secretHash)) || row.revokedAt || row.environment !== environment) throw invalid;
  if (row.status === "suspended") throw new Refusal(403, "app_suspended", "This application is suspended.");
  if (environment === "live" && !row.productionEnabled) throw new Refusal(403, "production_not_enabled", "Production is not enabled for this application; use a sandbox key.");
  return {
    id: row.id,
    environment,
    app: { id: row.appId, name: row.name, status: row.status, productionEnabled: row.productionEnabled, categoryAllowlist: row.categoryAllowlist, syncMode: row.syncMode },
  };
}

function rateLimitHeaders(remaining: number, msBeforeNext: number): Record<string, string> {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return { "RateLimit-Policy": `"key";q=${POINTS};w=${WINDOW_SECONDS}`, RateLimit: `"key";r=${Math.max(0, remaining)};t=${seconds}` };
}

async function consume(keyId: string): Promise<Record<string, string>> {
  try {
    const result = await limiter.consume(keyId, 1);
    return rateLimitHeaders(result.remainingPoints, result.msBeforeNext);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const headers = { ...rateLimitHeaders(0, rejection.msBeforeNext), "Retry-After": String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))) };
    throw new Refusal(429, "rate_limited", `Too many requests: at most ${POINTS} per ${WINDOW_SECONDS} seconds.`, headers);
  }
}

function sign(body: string): string {
  return createHmac("sha256", cursorKey).update(body).digest("base64url");
}

type Binding = { endpoint: string; applicationId: string; environment: string; subject: string; category: string };

function encodeCursor(binding: Binding, position: unknown): string {
  const body = Buffer.from(JSON.stringify({ b: binding, p: position })).toString("base64url");
  return `${body}.${sign(body)}`;
}

function decodeCursor<T>(cursor: string, binding: Binding): T {
  const invalid = new Refusal(400, "invalid_cursor", "The cursor is not valid for this endpoint, subject and category. Pass each nextCursor back unchanged.");
  const [body, signature, extra] = cursor.split(".");
  if (!body || !signature || extra !== undefined) throw invalid;
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
  const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { b: Binding; p: T };
  const b = payload.b;
  if (b.endpoint !== binding.endpoint || b.applicationId !== binding.applicationId || b.environment !== binding.environment || b.subject !== binding.subject || b.category !== binding.category) {
    throw invalid;
  }
  return payload.p;
}

type Receipt = { id: string; categories: string[]; expiresAt: Date; grantedAt: Date };

async function receiptOf(key: Key, subjectId: string): Promise<{ receipt: Receipt; readable: string[] }> {
  const { rows } = await pool.query<Receipt>({
    name: "receipt",
    text: `SELECT id, categories, "expiresAt", "grantedAt" FROM "ConsentReceipt"
           WHERE "subjectId" = $1 AND "applicationId" = $2 AND environment = $3 AND status = 'active' AND "expiresAt" > $4 LIMIT 1`,
    values: [subjectId, key.app.id, key.environment, new Date()],
  });
  const receipt = rows[0];
  if (!receipt) throw new Refusal(404, "not_found", `No subject ${subjectId} shares records with this application.`);
  const granted = CATEGORIES.filter((category) => receipt.categories.includes(category));
  return { receipt: { ...receipt, categories: granted }, readable: granted.filter((category) => key.app.categoryAllowlist.includes(category)) };
}

function readableCategory(readable: string[], receipt: Receipt, category: string): void {
  if (!CATEGORIES.includes(category)) throw new Refusal(400, "invalid_categories", "Name one category.");
  if (readable.includes(category)) return;
  const why = receipt.categories.includes(category) ? "the application's category allowlist" : "the subject's consent";
  throw new Refusal(403, "app_scope_exceeded", `${category} is outside ${why}.`);
}

function limitOf(query: URLSearchParams): number {
  const raw = query.get("limit");
  if (raw === null) return 50;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > 100) throw new Refusal(400, "invalid_pagination", "limit must be a whole number from 1 to 100.");
  return limit;
}

async function repeatableRead<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function categoryPage(client: pg.PoolClient, subjectId: string, category: string, limit: number, after: { s: string; i: string } | null) {
  const { rows } = after
    ? await client.query({
        name: "page-after",
        text: `SELECT id, data, "sortAt" FROM "Record" WHERE "subjectId" = $1 AND category = $2 AND "deletedAt" IS NULL
               AND ("sortAt" < $3 OR ("sortAt" = $3 AND id < $4)) ORDER BY "sortAt" DESC, id DESC LIMIT $5`,
        values: [subjectId, category, new Date(after.s), after.i, limit + 1],
      })
    : await client.query({
        name: "page",
        text: `SELECT id, data, "sortAt" FROM "Record" WHERE "subjectId" = $1 AND category = $2 AND "deletedAt" IS NULL
               ORDER BY "sortAt" DESC, id DESC LIMIT $3`,
        values: [subjectId, category, limit + 1],
      });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { records: page.map((row) => row.data), next: rows.length > limit && last ? { s: (last.sortAt as Date).toISOString(), i: last.id as string } : null };
}

async function lastSequence(client: pg.PoolClient, subjectId: string, category: string): Promise<number> {
  const { rows } = await client.query({ name: "counter", text: `SELECT "lastSequence" FROM "ChangeCounter" WHERE "subjectId" = $1 AND category = $2`, values: [subjectId, category] });
  return rows[0]?.lastSequence ?? 0;
}

const binding = (endpoint: string, key: Key, subject: string, category: string): Binding => ({ endpoint, applicationId: key.app.id, environment: key.environment, subject, category });

async function getApp(key: Key): Promise<Answer> {
  const app = key.app;
  return {
    status: 200,
    body: {
      object: "application",
      id: app.id,
      name: app.name,
      environment: key.environment,
      status: app.status,
      categoryAllowlist: app.categoryAllowlist,
      syncMode: app.syncMode === "one_time" ? "one-time" : "continuous",
      productionEnabled: app.productionEnabled,
    },
  };
}

async function getCategory(key: Key, subjectId: string, category: string, query: URLSearchParams): Promise<Answer> {
  if (!CATEGORIES.includes(category)) throw new Refusal(400, "invalid_categories", "Name one category.");
  const limit = limitOf(query);
  const { receipt, readable } = await receiptOf(key, subjectId);
  readableCategory(readable, receipt, category);
  const cursor = query.get("cursor");
  const after = cursor ? decodeCursor<{ s: string; i: string }>(cursor, binding("records", key, subjectId, category)) : null;
  const { page, sequence } = await repeatableRead(async (client) => ({
    page: await categoryPage(client, subjectId, category, limit, after),
    sequence: await lastSequence(client, subjectId, category),
  }));
  return {
    status: 200,
    body: {
      data: page.records,
      hasMore: page.next !== null,
      nextCursor: page.next ? encodeCursor(binding("records", key, subjectId, category), page.next) : null,
      meta: { changeCursor: encodeCursor(binding("changes", key, subjectId, category), { q: sequence }), schemaVersion: SCHEMA_VERSION },
    },
  };
}

async function getChanges(key: Key, subjectId: string, category: string, query: URLSearchParams): Promise<Answer> {
  if (!CATEGORIES.includes(category)) throw new Refusal(400, "invalid_categories", "Name one category.");
  const limit = limitOf(query);
  const { receipt, readable } = await receiptOf(key, subjectId);
  readableCategory(readable, receipt, category);
  const cursor = query.get("cursor");
  if (!cursor) throw new Refusal(400, "invalid_cursor", "Pass the changeCursor of a category page (or a later nextCursor) as cursor.");
  const after = decodeCursor<{ q: number }>(cursor, binding("changes", key, subjectId, category)).q;
  const page = await repeatableRead(async (client) => {
    const { rows } = await client.query({
      name: "changes",
      text: `SELECT sequence, "changeType", "recordId" FROM "RecordChange" WHERE "subjectId" = $1 AND category = $2 AND sequence > $3 ORDER BY sequence ASC LIMIT $4`,
      values: [subjectId, category, after, limit + 1],
    });
    const changes = rows.slice(0, limit);
    const upserted = [...new Set(changes.filter((change) => change.changeType === "upsert").map((change) => change.recordId as string))];
    const records = await client.query({ name: "changed-records", text: `SELECT id, data FROM "Record" WHERE id = ANY($1) AND "deletedAt" IS NULL`, values: [upserted] });
    const current = new Map(records.rows.map((row) => [row.id, row.data]));
    return {
      data: changes.map((change) => ({
        sequence: change.sequence,
        changeType: change.changeType,
        recordId: change.recordId,
        record: change.changeType === "upsert" ? (current.get(change.recordId) ?? null) : null,
      })),
      lastSequence: changes.at(-1)?.sequence ?? after,
      hasMore: rows.length > limit,
    };
  });
  return { status: 200, body: { data: page.data, hasMore: page.hasMore, nextCursor: encodeCursor(binding("changes", key, subjectId, category), { q: page.lastSequence }) } };
}

async function getSnapshot(key: Key, subjectId: string): Promise<Answer> {
  const { receipt, readable } = await receiptOf(key, subjectId);
  const sections = await repeatableRead(async (client) => {
    const read: Record<string, unknown> = {};
    for (const category of readable) {
      const page = await categoryPage(client, subjectId, category, SECTION_RECORDS, null);
      const sequence = await lastSequence(client, subjectId, category);
      read[category] = { records: page.records, hasMore: page.next !== null, changeCursor: encodeCursor(binding("changes", key, subjectId, category), { q: sequence }) };
    }
    return read;
  });
  const { rows: sources } = await pool.query({
    name: "sources",
    text: `SELECT s.id, s."providerId", s."syncStatus", s."lastSyncedAt", p.name AS "providerName",
                  i.id AS "importId", i."finishedAt" AS "importFinishedAt", i."recordCounts", i.fidelity
           FROM "Source" s JOIN "Provider" p ON p.id = s."providerId"
           LEFT JOIN LATERAL (
             SELECT id, "finishedAt", "recordCounts", fidelity FROM "SourceImport"
             WHERE "sourceId" = s.id AND status = 'completed' ORDER BY "startedAt" DESC LIMIT 1
           ) i ON true
           WHERE s."subjectId" = $1 ORDER BY s."createdAt" ASC`,
    values: [subjectId],
  });
  const warnings = sources.flatMap((source) =>
    source.syncStatus === "failed" || source.syncStatus === "partial"
      ? [{ code: "source_unavailable", message: `${source.providerName} could not be read; records from its last import are shown.`, sourceId: source.id }]
      : source.syncStatus === "synced"
        ? []
        : [{ code: "source_syncing", message: `${source.providerName} has not finished importing.`, sourceId: source.id }],
  );
  return {
    status: 200,
    body: {
      subject: subjectId,
      receiptId: receipt.id,
      syncStatus: warnings.length === 0 ? "complete" : "partial",
      warnings,
      consent: { status: "active", categories: receipt.categories, expiresAt: receipt.expiresAt.toISOString() },
      sources: sources.map((source) => ({
        sourceId: source.id,
        providerId: source.providerId,
        providerName: source.providerName,
        status: source.syncStatus,
        lastSyncedAt: source.lastSyncedAt?.toISOString() ?? null,
        fidelity: presentFidelityReport(
          source.importId ? { id: source.importId, finishedAt: source.importFinishedAt, recordCounts: source.recordCounts, fidelity: source.fidelity } : null,
          readable as Category[],
        ),
      })),
      sections,
      meta: { schemaVersion: SCHEMA_VERSION, generatedAt: new Date().toISOString() },
    },
  };
}

// The reads' floors (the report's floor pairs): the least any server does to answer a category page or a snapshot
// from PostgreSQL. One statement reads the records the answer holds, in page order, and their stored text is forwarded
// as it is, in one JSON array: no key, rate limit, consent, change cursor, next cursor or sources. Keyless, under
// /floor, and answering only what the bench sends.
const FLOOR_RECORDS: pg.CustomTypesConfig = { getTypeParser: () => (text: string) => text };

async function floorAnswer(res: ServerResponse, subjectId: string, categories: readonly string[], limit: number): Promise<void> {
  const { rows } = await pool.query<{ data: string }>(
    categories.length === 1
      ? {
          name: "floor-page",
          text: `SELECT data FROM "Record" WHERE "subjectId" = $1 AND category = $2 AND "deletedAt" IS NULL ORDER BY "sortAt" DESC, id DESC LIMIT $3`,
          values: [subjectId, categories[0], limit],
          types: FLOOR_RECORDS,
        }
      : {
          name: "floor-snapshot",
          text: `SELECT r.data FROM unnest($2::text[]) WITH ORDINALITY AS c(category, position)
                 CROSS JOIN LATERAL (SELECT data, "sortAt", id FROM "Record" WHERE "subjectId" = $1 AND category = c.category AND "deletedAt" IS NULL
                                     ORDER BY "sortAt" DESC, id DESC LIMIT $3) r
                 ORDER BY c.position, r."sortAt" DESC, r.id DESC`,
          values: [subjectId, categories, limit],
          types: FLOOR_RECORDS,
        },
  );
  const body = `{"data":[${rows.map((row) => row.data).join(",")}]}`;
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const FLOOR_ROUTE = /^\/floor\/users\/([^/]+)\/records(?:\/([^/]+))?$/;

/** GET /health, keyless: the database answers. */
async function getHealth(): Promise<Answer> {
  const reachable = await pool.query("SELECT 1").then(() => true, () => false);
  return {
    status: reachable ? 200 : 503,
    body: { status: reachable ? "ok" : "unavailable", version: "2026-09-22", checks: { database: reachable ? "ok" : "unreachable" } },
  };
}

const ROUTES: [RegExp, (key: Key, match: string[], query: URLSearchParams) => Promise<Answer>][] = [
  [/^\/api\/v1\/app$/, (key) => getApp(key)],
  [/^\/api\/v1\/users\/([^/]+)\/records$/, (key, [subject]) => getSnapshot(key, subject!)],
  [/^\/api\/v1\/users\/([^/]+)\/records\/([^/]+)$/, (key, [subject, category], query) => getCategory(key, subject!, category!, query)],
  [/^\/api\/v1\/users\/([^/]+)\/records\/([^/]+)\/changes$/, (key, [subject, category], query) => getChanges(key, subject!, category!, query)],
];

function send(res: ServerResponse, requestId: string, answer: Answer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "Service-Version": "2026-09-22",
    "Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    ...answer.headers,
  });
  res.end(body);
}

const server = createServer((req, res) => {
  const requestId = `req_${randomBytes(18).toString("base64url")}`;
  void (async () => {
    let headers: Record<string, string> = {};
    try {
      const url = new URL(req.url ?? "/", "http://baseline");
      const route = ROUTES.find(([pattern]) => pattern.test(url.pathname));
      if (url.pathname === "/api/v1/health" && req.method === "GET") return send(res, requestId, await getHealth());
      const floor = FLOOR_ROUTE.exec(url.pathname);
      if (floor && req.method === "GET") {
        const [subject, category] = floor.slice(1).map((part) => (part === undefined ? undefined : decodeURIComponent(part)));
        return await floorAnswer(res, subject!, category ? [category] : CATEGORIES, category ? limitOf(url.searchParams) : SECTION_RECORDS);
      }
      if (!route || req.method !== "GET") throw new Refusal(404, "not_found", `No operation at ${req.method} ${url.pathname}.`);
      const key = await authenticate(req.headers.authorization);
      headers = await consume(key.id);
      const params = route[0].exec(url.pathname)!.slice(1).map(decodeURIComponent);
      const answer = await route[1](key, params, url.searchParams);
      send(res, requestId, { ...answer, headers: { ...headers, ...answer.headers } });
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(500, "internal_error", "An unexpected error occurred; retry with backoff.");
      if (!(error instanceof Refusal)) console.error(error);
      const type = refusal.status >= 500 ? "api_error" : "invalid_request_error";
      send(res, requestId, { status: refusal.status, body: { error: { type, code: refusal.code, message: refusal.message, requestId } }, headers: { ...headers, ...refusal.headers } });
    }
  })();
});

const port = Number(process.env.PORT ?? 3100);
server.listen(port, "127.0.0.1", () => console.log(`baseline on http://127.0.0.1:${port}`));
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
