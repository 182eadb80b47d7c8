import type { LifecycleCycle } from "@/lib/jobs";
import { db } from "@/lib/db";

/** Pending sessions whose link has expired end `expired` (reads already show them so before this runs). */
export const expireConnectSessions = {
  name: "expire-connect-sessions",
  run: async (now: Date) =>
    (await db().connectSession.updateMany({ where: { status: "pending", expiresAt: { lte: now } }, data: { status: "expired" } })).count,
} satisfies LifecycleCycle;
