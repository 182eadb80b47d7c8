import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { effectiveSessionStatus, loadSession, presentSession } from "./present-session";

async function ownSession(key: KeyAuth, sessionId: string) {
  const session = await loadSession({ id: sessionId, applicationId: key.application.id, environment: key.environment });
  if (!session) throw new ApiError("not_found", `No Connect session ${sessionId} for this application.`);
  return session;
}

/** GET /connect/sessions/{sessionId}. */
export async function getConnectSession(key: KeyAuth, sessionId: string, origin: string) {
  return presentSession(await ownSession(key, sessionId), origin);
}

/** POST /connect/sessions/{sessionId}/cancel: ends a pending session; a completed one is 409 `session_completed`. */
export async function cancelConnectSession(key: KeyAuth, sessionId: string, origin: string, now = new Date()) {
  const session = await ownSession(key, sessionId);
  const status = effectiveSessionStatus(session, now);
  if (status === "completed") throw new ApiError("session_completed", "The session is completed; revoke its receipt instead.");
  if (status === "pending") {
    // Conditional, so a completion racing this cancel wins or loses cleanly, never half-applies.
    const { count } = await db().connectSession.updateMany({ where: { id: session.id, status: "pending" }, data: { status: "cancelled", cancelledAt: now } });
    if (count === 0) return cancelConnectSession(key, sessionId, origin, now);
  }
  return presentSession((await loadSession({ id: session.id }))!, origin, now);
}
