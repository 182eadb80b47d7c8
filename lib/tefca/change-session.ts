import { requireSandbox, type KeyAuth } from "@/lib/auth";
import type { Prisma, Tx } from "@/lib/db";
import { requireScope } from "./session-state";
import { activeApplication, inTefcaTransaction, ownTefcaSession, type TefcaSessionRow } from "./storage";
import { requireIfMatch, sessionChanged } from "./versioning";

export type SessionChange = {
  /** Whether the application's allowlist must still hold the session's categories (revoking needs no scope). */
  needsScope: boolean;
  /** The fields to write, or null when the session is already as asked (nothing written, version unchanged). */
  change: (session: TefcaSessionRow) => Prisma.TefcaSessionUpdateManyMutationInput | null;
};

/**
 * Every TEFCA session change, one way: in one transaction, the application must be active (`app_inactive`), the
 * session this application's (`session_not_found`), at the version If-Match names (`session_changed`) and in
 * scope (`app_scope_changed`); `change` checks the state and computes the write, which applies only if the
 * version is still the one read (UPDATE ... WHERE version = $v). A concurrent change that moved the version in
 * between makes the write touch no row: 409 `session_changed`, nothing written.
 */
export async function changeTefcaSession(key: KeyAuth, sessionId: string, ifMatch: string | null, { needsScope, change }: SessionChange): Promise<TefcaSessionRow> {
  requireSandbox(key);
  return inTefcaTransaction(async (tx: Tx) => {
    const application = await activeApplication(tx, key.application.id, "share");
    const session = await ownTefcaSession(tx, key.application.id, sessionId);
    requireIfMatch(ifMatch, session.version);
    if (needsScope) requireScope(session.categories, application.categoryAllowlist);
    const data = change(session);
    if (data === null) return session;
    const { count } = await tx.tefcaSession.updateMany({ where: { id: session.id, version: session.version }, data: { ...data, version: { increment: 1 } } });
    if (count === 0) throw sessionChanged();
    return tx.tefcaSession.findUniqueOrThrow({ where: { id: session.id } });
  });
}
