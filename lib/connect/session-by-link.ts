import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { linkTokenHash } from "./link-tokens";
import { effectiveSessionStatus } from "./present-session";

/**
 * The session behind a connect URL, for the hosted flow. An unknown token is 404 `not_found`; a link past its 60
 * minutes (or a session no longer pending) is 410 `session_expired` or says what ended it.
 */
export async function sessionByLink(token: string, now = new Date()) {
  const hash = linkTokenHash(token);
  const session = await db().connectSession.findFirst({
    where: { OR: [{ connectTokenHash: hash }, { earlierConnectTokenHashes: { has: hash } }] },
    include: { application: { select: { name: true } } },
  });
  if (!session) throw new ApiError("not_found", "This link is not valid.");
  const status = effectiveSessionStatus(session, now);
  if (status === "expired") throw new ApiError("session_expired", "This link has expired. Ask the application for a new one.");
  return { ...session, status };
}

export type LinkedSession = Awaited<ReturnType<typeof sessionByLink>>;
