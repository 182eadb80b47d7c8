import { db } from "@/lib/db";
import type { LifecycleCycle } from "@/lib/jobs";

/** Ended sessions stay readable (as expired or revoked) this long after their expiry, then are deleted. */
export const TEFCA_SESSION_RETENTION_HOURS = 24;

/** Deletes TEFCA sessions whose expiry passed more than TEFCA_SESSION_RETENTION_HOURS ago, revoked or not. */
export const pruneTefcaSessions = {
  name: "prune-tefca-sessions",
  run: async (now: Date) => {
    const cutoff = new Date(now.getTime() - TEFCA_SESSION_RETENTION_HOURS * 60 * 60 * 1000);
    return (await db().tefcaSession.deleteMany({ where: { expiresAt: { lt: cutoff } } })).count;
  },
} satisfies LifecycleCycle;
