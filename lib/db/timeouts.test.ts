import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { silentPostgres } from "@/test/silent-postgres";
import { closeDb, db, pgPool } from "./client";
import { databaseTimeouts, DEFAULT_DATABASE_TIMEOUTS, isDatabaseTimeout } from "./timeouts";
import { withTransaction } from "./transaction";

// A database that stops answering, as pg sees it, without freezing a real server (test/faults/ does that): the
// errors below are the ones pg and pg-pool raise themselves when the bounds trip.
const BOUND_MS = 200;

afterEach(async () => {
  await closeDb();
  vi.unstubAllEnvs();
});

async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  return { error, ms: Date.now() - started };
}

describe("the client-side bounds on a silent database", () => {
  it("are read from DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS, 5 s each by default", () => {
    vi.stubEnv("DATABASE_CONNECT_TIMEOUT_MS", "");
    vi.stubEnv("DATABASE_QUERY_TIMEOUT_MS", "");
    expect(databaseTimeouts()).toEqual({ connectMs: 5_000, queryMs: 5_000 });
    expect(DEFAULT_DATABASE_TIMEOUTS).toEqual({ connectMs: 5_000, queryMs: 5_000 });
    vi.stubEnv("DATABASE_CONNECT_TIMEOUT_MS", "1500");
    vi.stubEnv("DATABASE_QUERY_TIMEOUT_MS", "8000");
    expect(databaseTimeouts()).toEqual({ connectMs: 1_500, queryMs: 8_000 });
    vi.stubEnv("DATABASE_QUERY_TIMEOUT_MS", "soon");
    expect(() => databaseTimeouts()).toThrow(/DATABASE_QUERY_TIMEOUT_MS/);
  });

  it("give up on a connection the server never completes, with an error recognized as a timeout", async () => {
    const server = await silentPostgres({ startup: "silent" });
    const pool = new pg.Pool({ connectionString: server.url, max: 1, connectionTimeoutMillis: BOUND_MS });
    try {
      const opening = await rejection(pool.connect());
      // The one connection is still being opened: a second caller waits for the pool, and gives up as well.
      const [first, waiting] = await Promise.all([rejection(pool.query("SELECT 1")), rejection(pool.query("SELECT 1"))]);
      for (const { error, ms } of [opening, first, waiting]) {
        expect(isDatabaseTimeout(error), String(error)).toBe(true);
        expect(ms).toBeLessThan(BOUND_MS + 2_000);
      }
    } finally {
      await pool.end();
      await server.close();
    }
  });

  it("give up on a statement that gets no answer, and destroy its connection rather than pool it", async () => {
    const server = await silentPostgres({ startup: "answered" });
    const pool = new pg.Pool({ connectionString: server.url, max: 2, query_timeout: BOUND_MS });
    try {
      const { error, ms } = await rejection(pool.query("SELECT 1"));
      expect(isDatabaseTimeout(error), String(error)).toBe(true);
      expect(ms).toBeLessThan(BOUND_MS + 2_000);
      expect(pool.totalCount).toBe(0);
      await vi.waitFor(() => expect(server.connections()).toBe(0));
    } finally {
      await pool.end();
      await server.close();
    }
  });

  it("destroy a Prisma transaction's connection whose statement timed out, without a ROLLBACK queued behind it", async () => {
    const sent: string[] = [];
    const server = await silentPostgres({ startup: "answered", answers: (sql) => (sent.push(sql), /^(BEGIN|SET|COMMIT|ROLLBACK)/.test(sql)) });
    vi.stubEnv("DATABASE_URL", server.url);
    vi.stubEnv("DATABASE_QUERY_TIMEOUT_MS", String(BOUND_MS));
    try {
      const { error, ms } = await rejection(withTransaction("ReadCommitted", (tx) => tx.$queryRawUnsafe("SELECT 1")));
      expect(isDatabaseTimeout(error), String(error)).toBe(true);
      expect(ms).toBeLessThan(BOUND_MS + 2_000);
      expect(sent).toContain("BEGIN");
      expect(sent).not.toContain("ROLLBACK");
      expect(pgPool().totalCount).toBe(0);
      await vi.waitFor(() => expect(server.connections()).toBe(0));
      // A plain query through Prisma is bounded the same way.
      expect(isDatabaseTimeout((await rejection(db().application.findFirst())).error)).toBe(true);
    } finally {
      await closeDb();
      await server.close();
    }
  });

  it("are recognized as they surface: raised by pg, wrapped with pg's error as the cause, or with its text", () => {
    expect(isDatabaseTimeout(new Error("Query read timeout"))).toBe(true);
    expect(isDatabaseTimeout(new Error("Connection terminated due to connection timeout", { cause: new Error("timeout expired") }))).toBe(true);
    expect(isDatabaseTimeout(new Error("wrapped", { cause: new Error("timeout exceeded when trying to connect") }))).toBe(true);
    expect(isDatabaseTimeout(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }))).toBe(false);
    expect(isDatabaseTimeout(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBe(false);
    expect(isDatabaseTimeout("Query read timeout")).toBe(false);
  });
});
