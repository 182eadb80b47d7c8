import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { ApiError, HEADER } from "@/lib/http";
import { newId } from "@/lib/ids";
import { parseCategoryList } from "@/lib/records";
import { requireFixedPatient } from "./fixed-patient";
import { TEFCA_ACTIVE_SESSION_LIMIT, TEFCA_SESSION_MINUTES } from "./limits";
import { presentTefcaSession } from "./present-session";
import type { TefcaSessionResource } from "./schemas";
import { activeApplication, inTefcaTransaction } from "./storage";

/**
 * POST /tefca/sessions: a `started` session for the fixed patient and the categories asked for, expiring 15
 * minutes from now. Under the application's row lock the active sessions (not revoked, not expired) are counted,
 * so two concurrent creations can never both take the 20th place.
 */
export async function createTefcaSession(key: KeyAuth, body: { patientId: string; categories: string[] }, now = new Date()): Promise<TefcaSessionResource> {
  requireSandbox(key);
  requireFixedPatient(body.patientId);
  const categories = parseCategoryList(body.categories);
  const session = await inTefcaTransaction(async (tx) => {
    const application = await activeApplication(tx, key.application.id, "update");
    const outside = categories.filter((category) => !application.categoryAllowlist.includes(category));
    if (outside.length > 0) throw new ApiError("app_scope_exceeded", `Outside the application's category allowlist: ${outside.join(", ")}.`);
    const active = await tx.tefcaSession.findMany({
      where: { applicationId: key.application.id, state: { not: "revoked" }, expiresAt: { gt: now } },
      select: { expiresAt: true },
      orderBy: { expiresAt: "asc" },
    });
    if (active.length >= TEFCA_ACTIVE_SESSION_LIMIT) {
      const retryAfter = Math.max(1, Math.ceil((active[0]!.expiresAt.getTime() - now.getTime()) / 1000));
      throw new ApiError(
        "session_limit",
        `This application has ${active.length} active TEFCA sessions, the most allowed (${TEFCA_ACTIVE_SESSION_LIMIT}); revoke one or wait for one to expire.`,
        { headers: { [HEADER.retryAfter]: String(retryAfter) } },
      );
    }
    return tx.tefcaSession.create({
      data: {
        id: newId("tfs_"),
        applicationId: key.application.id,
        state: "started",
        categories,
        expiresAt: new Date(now.getTime() + TEFCA_SESSION_MINUTES * 60_000),
        createdAt: now,
        updatedAt: now,
      },
    });
  });
  return presentTefcaSession(session, now);
}
