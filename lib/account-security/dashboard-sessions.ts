import { randomBytes } from "node:crypto";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { db } from "@/lib/db";
import { summarizeUserAgent } from "./device";

/** lastSeenAt is written at most once a minute per session: a page's render should not be a write each time. */
const TOUCH_EVERY_MS = 60_000;

export type DashboardSessionRow = {
  id: string;
  developerId: string;
  device: string;
  address: string;
  createdAt: Date;
  lastSeenAt: Date;
  secondFactorPending: boolean;
  secondFactorAt: Date | null;
  endedAt: Date | null;
};

/** Why a session ended, as the audit trail and the Security page say it. */
export type SessionEndReason =
  | "sign_out"
  | "ended_by_owner"
  | "signed_out_everywhere"
  | "password_changed"
  | "password_reset"
  | "second_factor_removed"
  | (string & {});

/** A session id: 32 random bytes, base64url; it rides in the next-auth JWT (signed and encrypted). */
function newSessionId(): string {
  return `dss_${randomBytes(24).toString("base64url")}`;
}

/**
 * Opens a dashboard session for a sign-in whose password (or passkey) was accepted. `secondFactorPending` when the
 * account has a second factor it has not given yet: the session is not signed in until it does. Answers the session
 * and whether the device (its user-agent summary) is new to the account, for the new-device notice.
 */
export async function startDashboardSession(input: {
  developerId: string;
  userAgent: string | null;
  address: string;
  secondFactorPending: boolean;
  secondFactorGiven?: boolean;
}): Promise<{ session: DashboardSessionRow; newDevice: boolean }> {
  const device = summarizeUserAgent(input.userAgent);
  const [seen, earlier] = await Promise.all([
    db().dashboardSession.findFirst({ where: { developerId: input.developerId, device, secondFactorPending: false }, select: { id: true } }),
    db().dashboardSession.findFirst({ where: { developerId: input.developerId }, select: { id: true } }),
  ]);
  const session = await db().dashboardSession.create({
    data: {
      id: newSessionId(),
      developerId: input.developerId,
      device,
      address: input.address,
      secondFactorPending: input.secondFactorPending,
      secondFactorAt: input.secondFactorGiven ? new Date() : null,
    },
  });
  // The account's very first session (its sign-up) is no news to its owner.
  return { session, newDevice: seen === null && earlier !== null };
}

/**
 * The session a JWT names, if it is still open and belongs to `developerId`; its lastSeenAt moves on (at most once a
 * minute). An ended, unknown or foreign session answers null: the request is signed out.
 */
export async function liveDashboardSession(sessionId: string | undefined | null, developerId: string): Promise<DashboardSessionRow | null> {
  if (!sessionId) return null;
  const session = await db().dashboardSession.findUnique({ where: { id: sessionId } });
  if (!session || session.developerId !== developerId || session.endedAt) return null;
  if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db().dashboardSession.updateMany({ where: { id: session.id, endedAt: null }, data: { lastSeenAt: new Date() } });
  }
  return session;
}

/** The account's open sessions (signed in or waiting for the second factor), latest first, for the Security page. */
export async function listDashboardSessions(developerId: string): Promise<DashboardSessionRow[]> {
  return db().dashboardSession.findMany({ where: { developerId, endedAt: null }, orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }], take: 100 });
}

/** The second factor was given in this session now (at sign-in or a step-up): signed in, and fresh for step-up. */
export async function markSecondFactorGiven(sessionId: string): Promise<void> {
  await db().dashboardSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { secondFactorPending: false, secondFactorAt: new Date() } });
}

/**
 * Ends one session of `developerId` (its owner's "sign out" on the Security page, or the sign-out button), audited
 * with the actor and the request's address. False when it was not open or not theirs.
 */
export async function endDashboardSession(developerId: string, sessionId: string, reason: SessionEndReason, actor?: AuditActor): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const ended = await tx.dashboardSession.updateMany({ where: { id: sessionId, developerId, endedAt: null }, data: { endedAt: new Date(), endedReason: reason } });
    if (ended.count === 0) return false;
    await recordAudit(tx, {
      action: "auth.session_end",
      actor: actor ?? { type: "developer", id: developerId },
      targetType: "dashboard_session",
      targetId: sessionId,
      after: { reason },
    });
    return true;
  });
}

/**
 * Ends every open session of the account except `keepSessionId` (none when null): "sign out everywhere", a password
 * change (keeping the current one), a password reset (keeping none), a second factor removed. One audit entry names
 * how many ended. Answers that number.
 */
export async function endOtherSessions(developerId: string, keepSessionId: string | null, reason: string): Promise<number> {
  return db().$transaction(async (tx) => {
    const ended = await tx.dashboardSession.updateMany({
      where: { developerId, endedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
      data: { endedAt: new Date(), endedReason: reason },
    });
    if (ended.count > 0) {
      await recordAudit(tx, {
        action: "auth.session_end",
        actor: { type: "developer", id: developerId },
        targetType: "developer",
        targetId: developerId,
        after: { reason, sessionsEnded: ended.count, kept: keepSessionId ?? "none" },
      });
    }
    return ended.count;
  });
}
