import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { presentTefcaSession } from "./present-session";
import type { TefcaSessionResource } from "./schemas";
import { ownTefcaSession, tefcaStorage } from "./storage";

/** GET /tefca/sessions/{sessionId}: the session as it is at `now` (expired once its 15 minutes are over). */
export async function getTefcaSession(key: KeyAuth, sessionId: string, now = new Date()): Promise<TefcaSessionResource> {
  requireSandbox(key);
  return presentTefcaSession(await tefcaStorage(() => ownTefcaSession(db(), key.application.id, sessionId)), now);
}
