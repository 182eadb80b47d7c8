import * as oauth from "oauth4webapi";
import { recordAudit } from "@/lib/audit";
import { decryptSecret } from "@/lib/auth";
import { db, withTransaction } from "@/lib/db";
import { defineJob } from "@/lib/jobs";
import { DEFAULT_HTTP_POLICY, discoverSmartServer, findProvider, oauthClient, tokenRequestOptions, withSourceRefreshLock, type HttpPolicy } from "@/lib/sources";

/**
 * What became of a source's tokens once its subject's consent ended: revoked at the health system (RFC 7009) and
 * erased; erased without revocation because the health system's SMART configuration advertises no
 * `revocation_endpoint` (or it never gave a refresh token); or kept because the revocation failed, to be tried again.
 */
export type TokenRevocationOutcome = "revoked" | "not_advertised" | "failed";

export type SourceTokenRevocation = { sourceId: string; outcome: TokenRevocationOutcome };

/** Sources one run of the job revokes at most; the rest wait for its next run. */
const SOURCES_PER_RUN = 50;
/** After the n-th failure in a row the source waits 2^(n-1) minutes, at most six hours, before the next try. */
const FIRST_RETRY_MINUTES = 1;
const MAX_RETRY_MINUTES = 360;
/** Failures older than this no longer count towards the wait (the audit trail is read only this far back). */
const FAILURE_MEMORY_DAYS = 2;

/** The sweep's requests: a health system that does not answer within the policy is tried again on a later run. */
const SWEEP_POLICY: HttpPolicy = { ...DEFAULT_HTTP_POLICY, maxAttempts: 3, maxRetryAfterMs: 30_000 };
/** One quick try, for a purge that deletes the tokens right after (the patient asked for the deletion). */
export const BEFORE_PURGE_POLICY: HttpPolicy = { timeoutMs: 10_000, maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 };

/**
 * Sources whose tokens are due for revocation at `now`: they still hold a token, their subject had a receipt that
 * ended and has none active (a patient who consented again keeps their sources), and no Connect session of theirs
 * is in progress (a patient signing in again to an ended subject's health system is not cut off mid-flow). A source
 * whose revocation failed waits out its backoff, counted from the `source.token_revocation` failures on the audit
 * trail (read through its createdAt index, only `FAILURE_MEMORY_DAYS` back).
 */
export async function sourcesDueForTokenRevocation(now: Date, options: { subjectId?: string; ignoreBackoff?: boolean; limit?: number } = {}): Promise<{ id: string; subjectId: string }[]> {
  const since = new Date(now.getTime() - FAILURE_MEMORY_DAYS * 24 * 60 * 60 * 1000);
  return db().$queryRawUnsafe<{ id: string; subjectId: string }[]>(
    `SELECT s.id, s."subjectId" FROM "Source" s
     LEFT JOIN LATERAL (
       SELECT count(*)::int AS failures, max(x."createdAt") AS "lastFailureAt" FROM "AuditEntry" x
       WHERE x."createdAt" >= $2 AND x.action = 'source.token_revocation' AND x."targetType" = 'source' AND x."targetId" = s.id
         AND x.after->>'outcome' = 'failed'
     ) f ON true
     WHERE (s."refreshTokenEncrypted" IS NOT NULL OR s."accessTokenEncrypted" IS NOT NULL)
       AND ($3::text IS NULL OR s."subjectId" = $3)
       AND EXISTS (SELECT 1 FROM "ConsentReceipt" e WHERE e."subjectId" = s."subjectId" AND (e.status <> 'active' OR e."expiresAt" <= $1))
       AND NOT EXISTS (SELECT 1 FROM "ConsentReceipt" a WHERE a."subjectId" = s."subjectId" AND a.status = 'active' AND a."expiresAt" > $1)
       AND NOT EXISTS (SELECT 1 FROM "ConnectSession" c WHERE c.id = s."connectSessionId" AND c.status = 'pending')
       AND ($4 OR f.failures = 0 OR f."lastFailureAt" <= $1 - make_interval(mins => LEAST(${FIRST_RETRY_MINUTES} * power(2, f.failures - 1), ${MAX_RETRY_MINUTES})::int))
     ORDER BY s."updatedAt", s.id
     LIMIT $5`,
    now,
    since,
    options.subjectId ?? null,
    options.ignoreBackoff ?? false,
    options.limit ?? SOURCES_PER_RUN,
  );
}

/**
 * Revokes one source's refresh token at its health system and erases the source's tokens, under the source's
 * refresh lock (so an import refreshing at that moment cannot store a successor we would miss). The erase is
 * conditional on the row still holding the token revoked: a patient who signed in again meanwhile keeps the new one.
 * Each attempt is on the audit trail (`source.token_revocation`: the provider, the outcome and, for a failure, why;
 * never a token), which is where an operator sees a health system refusing or not answering.
 */
export async function revokeSourceTokens(sourceId: string, policy: HttpPolicy = SWEEP_POLICY, now = new Date()): Promise<SourceTokenRevocation | null> {
  return withSourceRefreshLock(sourceId, async () => {
    const source = await db().source.findUnique({
      where: { id: sourceId },
      select: { id: true, subjectId: true, providerId: true, refreshTokenEncrypted: true, accessTokenEncrypted: true, subject: { select: { applicationId: true } } },
    });
    if (!source || (source.refreshTokenEncrypted === null && source.accessTokenEncrypted === null)) return null;
    let outcome: TokenRevocationOutcome = "not_advertised";
    let reason: string | null = null;
    let providerName = source.providerId;
    try {
      const provider = await findProvider(source.providerId);
      providerName = provider.name;
      if (source.refreshTokenEncrypted !== null) {
        const server = await discoverSmartServer(provider, policy);
        if (server.as.revocation_endpoint) {
          const { client, clientAuth } = oauthClient(provider);
          const response = await oauth.revocationRequest(server.as, client, clientAuth, decryptSecret(source.refreshTokenEncrypted), {
            ...tokenRequestOptions(provider, policy),
            additionalParameters: { token_type_hint: "refresh_token" },
          });
          await oauth.processRevocationResponse(response);
          outcome = "revoked";
        }
      }
    } catch (error) {
      outcome = "failed";
      reason = describeFailure(error);
    }
    await withTransaction("ReadCommitted", async (tx) => {
      if (outcome !== "failed") {
        await tx.source.updateMany({
          where: { id: source.id, refreshTokenEncrypted: source.refreshTokenEncrypted, accessTokenEncrypted: source.accessTokenEncrypted },
          data: { refreshTokenEncrypted: null, accessTokenEncrypted: null, tokenExpiresAt: null, nextSyncAt: null },
        });
      }
      await recordAudit(tx, {
        action: "source.token_revocation",
        actor: { type: "system", label: "consent ended" },
        applicationId: source.subject.applicationId,
        targetType: "source",
        targetId: source.id,
        after: { subject: source.subjectId, provider: source.providerId, providerName, outcome, ...(reason ? { reason } : {}), at: now },
      });
    });
    return { sourceId: source.id, outcome };
  });
}

/** Why a revocation failed, as the operator reads it: the OAuth error or the HTTP trouble, never the token. */
function describeFailure(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `${error.error}: ${error.error_description ?? `answered ${error.status}`}`.slice(0, 300);
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `answered ${error.status}`;
  return ((error as Error).message ?? String(error)).slice(0, 300);
}

/** Revokes the tokens of every source due, one after another; returns what became of each. */
export async function revokeDueSourceTokens(now = new Date(), options: { subjectId?: string; ignoreBackoff?: boolean; policy?: HttpPolicy } = {}): Promise<SourceTokenRevocation[]> {
  const results: SourceTokenRevocation[] = [];
  for (const source of await sourcesDueForTokenRevocation(now, options)) {
    const result = await revokeSourceTokens(source.id, options.policy ?? SWEEP_POLICY, now);
    if (result) results.push(result);
  }
  return results;
}

/**
 * The upstream revocation job (issue 53): once a minute, across the deployment, each source of a subject whose
 * consent ended (revoked, expired, or deleted on the patient's request) has its refresh token revoked at the health
 * system and its tokens erased. A failure leaves the token in place and is tried again on a later run after a
 * backoff (1, 2, 4 ... minutes, at most 6 hours) until it succeeds or the retention purge deletes the source; each
 * failure is on the audit trail. The job itself fails when a revocation failed, so the queue's history shows it too.
 */
export const revokeUpstreamTokensJob = defineJob({
  queue: "revoke-upstream-tokens",
  policy: { policy: "singleton", retryLimit: 0, expireInSeconds: 600 },
  everySeconds: 60,
  async handler() {
    const failed = (await revokeDueSourceTokens()).filter((result) => result.outcome === "failed");
    if (failed.length > 0) throw new Error(`Upstream token revocation failed for ${failed.length} source(s); each is retried after its backoff.`);
  },
});
