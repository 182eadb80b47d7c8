import { db, withTransaction, type Tx } from "@/lib/db";
import { ApiError, isDatabaseError } from "@/lib/http";
import { log } from "@/lib/log";
import { TEFCA_LOCK_TIMEOUT_MS } from "./limits";

/**
 * Runs a TEFCA storage step: a database failure (the session table unreachable, missing, locked past the lock
 * timeout) answers 503 `tefca_sandbox_unavailable` rather than the generic 500, because nothing was changed and a
 * retry later is the remedy. API errors and programming errors pass through untouched.
 */
export async function tefcaStorage<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ApiError || !isDatabaseError(error)) throw error;
    log.warn({ err: error instanceof Error ? error.message : String(error) }, "TEFCA session storage unavailable");
    throw new ApiError("tefca_sandbox_unavailable", "The TEFCA sandbox's session storage is unavailable; nothing was changed. Retry later.");
  }
}

/** One READ COMMITTED transaction on TEFCA storage whose lock waits end after TEFCA_LOCK_TIMEOUT_MS (then 503). */
export function inTefcaTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return tefcaStorage(() =>
    withTransaction("ReadCommitted", async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${TEFCA_LOCK_TIMEOUT_MS}ms'`);
      return fn(tx);
    }),
  );
}

/** A session of this application, or 404 `session_not_found` (missing, or another application's). */
export async function ownTefcaSession(client: Tx | ReturnType<typeof db>, applicationId: string, sessionId: string) {
  const session = await client.tefcaSession.findFirst({ where: { id: sessionId, applicationId } });
  if (!session) throw new ApiError("session_not_found", `No TEFCA session ${sessionId} for this application.`);
  return session;
}
export type TefcaSessionRow = Awaited<ReturnType<typeof ownTefcaSession>>;

/**
 * The application as it is now, read under a lock (`share` for a session change, `update` for a creation, which
 * counts the active sessions): a suspended application is 403 `app_inactive` even when its key was admitted a
 * moment before the suspension.
 */
export async function activeApplication(tx: Tx, applicationId: string, lock: "share" | "update"): Promise<{ categoryAllowlist: string[] }> {
  const rows =
    lock === "update"
      ? await tx.$queryRaw<{ status: string; categoryAllowlist: string[] }[]>`SELECT status::text AS status, "categoryAllowlist" FROM "Application" WHERE id = ${applicationId} FOR UPDATE`
      : await tx.$queryRaw<{ status: string; categoryAllowlist: string[] }[]>`SELECT status::text AS status, "categoryAllowlist" FROM "Application" WHERE id = ${applicationId} FOR SHARE`;
  const application = rows[0];
  if (!application || application.status === "suspended") {
    throw new ApiError("app_inactive", "The application is not active for sandbox requests (it is suspended).");
  }
  return { categoryAllowlist: application.categoryAllowlist };
}
