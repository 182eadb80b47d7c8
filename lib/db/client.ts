import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client";
import { NotificationListener } from "./notifications";
import { releaseConnectionOnFailedCommit } from "./release-failed-commit";
import { processState } from "@/lib/process-state";

type DatabaseHandles = { url: string; pool: pg.Pool; prisma: PrismaClient; listener?: NotificationListener };

// One pool per process, created on first use (never at import or build time).
const current = processState<{ handles?: DatabaseHandles }>("db.handles", () => ({}));

function handles(): DatabaseHandles {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the platform with `npm start`, or set DATABASE_URL");
  const existing = current.handles;
  if (existing && existing.url === url) return existing;
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: releaseConnectionOnFailedCommit(new PrismaPg(pool)) });
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
    await existing.pool.end().catch(() => {});
  }
}

export type { PrismaClient };
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
