import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client";
import { NotificationListener } from "./notifications";
import { guardTransactionConnections } from "./transaction-connections";
import { databaseTimeouts } from "./timeouts";
import { processState } from "@/lib/process-state";

type DatabaseHandles = { url: string; pool: pg.Pool; prisma: PrismaClient; counters?: pg.Pool; listener?: NotificationListener };

// One pool per process, created on first use (never at import or build time).
const current = processState<{ handles?: DatabaseHandles }>("db.handles", () => ({}));

function handles(): DatabaseHandles {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the platform with `npm start`, or set DATABASE_URL");
  const existing = current.handles;
  if (existing && existing.url === url) return existing;
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 20), ...boundedWaits() });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: guardTransactionConnections(new PrismaPg(pool)) });
  current.handles = { url, pool, prisma };
  return current.handles;
}

/** The Prisma client for this process. */
export function db(): PrismaClient {
  return handles().prisma;
}

/** The raw pg pool behind the Prisma client, for libraries that take one (rate limiter). */
export function pgPool(): pg.Pool {
  return handles().pool;
}

/**
 * The pool for counters that every request writes (rate-limit windows, a key's lastUsedAt), opened on first use:
 * its connections commit without waiting for the write-ahead log to reach the disk (`synchronous_commit = off`).
 * Every request of a key counts in the key's one window row, and the row stays locked until the commit returns:
 * waiting for the disk there let one key's concurrent requests through one at a time, a disk flush each (figures
 * in docs/scaling.md, `rate_limits`).
 * Counting stays exact (the lock and the snapshot are the same); what a crash of PostgreSQL can lose is the last
 * moment's counts (at most three wal_writer_delay, 600 ms by default), so a window may admit that many requests
 * more after one. Nothing else is written through it: records, consents and everything else wait for the disk.
 */
export function counterPool(): pg.Pool {
  const open = handles();
  if (!open.counters) {
    const counters = new pg.Pool({
      ...withStartupOption(open.url, "-c synchronous_commit=off"),
      max: Number(process.env.DATABASE_COUNTER_POOL_SIZE ?? 10),
      ...boundedWaits(),
    });
    counters.on("error", () => {});
    open.counters = counters;
  }
  return open.counters;
}

/**
 * The client-side bounds (lib/db/timeouts.ts) as pg settings, for every pool and client of the request path: a
 * connection (checked out or opened) within connectMs, each statement within queryMs. pg.Pool hands a client whose
 * statement timed out back with the error, which destroys it (pool.query does so itself).
 */
export function boundedWaits(): Pick<pg.PoolConfig, "connectionTimeoutMillis" | "query_timeout"> {
  const { connectMs, queryMs } = databaseTimeouts();
  return { connectionTimeoutMillis: connectMs, query_timeout: queryMs };
}

/**
 * A pool's connection settings with a server setting for each of its sessions, sent at connection start (as libpq's
 * `options`) after any the URL's own `options` carry: pg lets a URL's `options` replace the config's.
 */
export function withStartupOption(url: string, option: string): pg.PoolConfig {
  const parsed = new URL(url);
  const own = parsed.searchParams.get("options");
  parsed.searchParams.delete("options");
  return { connectionString: parsed.toString(), options: own ? `${own} ${option}` : option };
}

/**
 * This process's connection that LISTENs for PostgreSQL notifications (one for every channel), opened on first
 * use; see NotificationListener.
 */
export function notificationListener(): NotificationListener {
  const open = handles();
  open.listener ??= new NotificationListener(open.url);
  return open.listener;
}

export async function closeDb(): Promise<void> {
  const existing = current.handles;
  current.handles = undefined;
  if (existing) {
    await existing.listener?.close();
    await existing.prisma.$disconnect();
    await existing.counters?.end().catch(() => {});
    await existing.pool.end().catch(() => {});
  }
}

export type { PrismaClient };
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * The connections of this process's pools as they stand (none when no pool is open yet; opening none): in use
 * (checked out), idle, and callers waiting for one. Read at each metrics scrape (lib/metrics).
 */
export function poolStats(): { pool: "main" | "counters"; total: number; idle: number; waiting: number }[] {
  const open = current.handles;
  if (!open) return [];
  const stats = (pool: "main" | "counters", p: pg.Pool) => ({ pool, total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount });
  return open.counters ? [stats("main", open.pool), stats("counters", open.counters)] : [stats("main", open.pool)];
}
