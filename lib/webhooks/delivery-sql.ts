import type pg from "pg";

/**
 * The SQL of the delivery hot path, as named pg query configs (each connection prepares a statement once, then only
 * binds it), run through pg directly: every attempt passes through these statements, and an ORM's query compilation
 * per call cost the worker more CPU than signing and posting. Each statement takes or answers a whole batch.
 *
 * The `WebhookDelivery` rows are the queue: a pending row is due at `nextAttemptAt` (first attempt, scheduled
 * retry, or the lease of a claimed attempt whose worker went silent), and claiming an attempt moves `nextAttemptAt`
 * to the lease's end. Timestamps travel as ISO-8601 UTC text cast to `timestamp(3)`, as Prisma stores them.
 */

/** The text a claimed attempt that never logged an outcome (its worker stopped) is logged with. */
export const INTERRUPTED = "interrupted: the worker stopped during the attempt";

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

// What a claimed attempt needs: the event, the application's sealed secrets, the row's `lastAttemptAt` before the claim.
const CLAIMED_COLUMNS = `c.id, c.attempts, c.url, to_char(c."previousAttemptAt", ${ISO}) AS "previousAttemptAt",
             e.id AS "eventId", e.type, e.environment::text AS environment, e.data, to_char(e."createdAt", ${ISO}) AS "createdAt",
             a."signingSecretEncrypted", a."previousSigningSecretEncrypted",
             to_char(a."previousSigningSecretExpiresAt", ${ISO}) AS "previousSigningSecretExpiresAt"
      FROM claimed c JOIN "Event" e ON e.id = c."eventId" JOIN "Application" a ON a.id = c."applicationId"`;

/**
 * Claims up to `limit` due deliveries, oldest due first, in one statement: the due rows are locked with `SKIP
 * LOCKED`, so workers claiming at once each get other rows, and each claimed row's next attempt is counted, stamped
 * `claimedAt` and leased until `leaseUntil`. A due row whose previous attempt never logged an outcome was claimed
 * by a worker that stopped: that attempt is logged as interrupted (the unique (delivery, attempt) keeps a logged one
 * as it is), and a delivery whose interrupted attempt was its last ends `failed` instead of being claimed.
 */
export function claimDueAttempts(input: { now: Date; leaseUntil: Date; limit: number; maxAttempts: number }): pg.QueryConfig<[string, string, number, number]> {
  return {
    name: "chartkey-webhook-claim-due",
    text: `WITH due AS (
        SELECT id, attempts, "lastAttemptAt" FROM "WebhookDelivery"
        WHERE status = 'pending' AND "nextAttemptAt" <= $1::timestamp(3)
        ORDER BY "nextAttemptAt" LIMIT $3
        FOR UPDATE SKIP LOCKED
      ), interrupted AS (
        INSERT INTO "WebhookDeliveryAttempt" (id, "deliveryId", attempt, "latencyMs", error)
        SELECT 'wha_' || left(replace(gen_random_uuid()::text, '-', ''), 24), id, attempts, 0, '${INTERRUPTED}' FROM due WHERE attempts > 0
        ON CONFLICT ("deliveryId", attempt) DO NOTHING
      ), exhausted AS (
        UPDATE "WebhookDelivery" d SET status = 'failed', "lastError" = 'interrupted', "nextAttemptAt" = NULL
        FROM due WHERE d.id = due.id AND due.attempts >= $4
      ), claimed AS (
        UPDATE "WebhookDelivery" d SET attempts = due.attempts + 1, "lastAttemptAt" = $1::timestamp(3), "nextAttemptAt" = $2::timestamp(3)
        FROM due WHERE d.id = due.id AND due.attempts < $4
        RETURNING d.id, d.attempts, d.url, d."eventId", d."applicationId", due."lastAttemptAt" AS "previousAttemptAt"
      )
      SELECT ${CLAIMED_COLUMNS}`,
    values: [input.now.toISOString(), input.leaseUntil.toISOString(), input.limit, input.maxAttempts],
  };
}

export type ClaimInput = { id: string; attempt: number; claimedAt: Date; leaseUntil: Date };

export type ClaimedRow = {
  id: string;
  attempts: number;
  url: string;
  /** `lastAttemptAt` before the claim, put back if the claim is released unused. */
  previousAttemptAt: string | null;
  eventId: string;
  type: string;
  environment: "sandbox" | "live";
  data: unknown;
  /** ISO-8601 UTC, as the payload's `timestamp` carries it. */
  createdAt: string;
  signingSecretEncrypted: string;
  previousSigningSecretEncrypted: string | null;
  previousSigningSecretExpiresAt: string | null;
};

/**
 * Claims attempts (`status = pending AND attempts = attempt - 1`, which also sets the lease) and reads what each
 * needs: the event, the application's sealed secrets, and the claimed row's previous `lastAttemptAt` (the joined
 * `p` is read before the update). Given two claims of one attempt, the update claims it once.
 */
export function claimAttempts(claims: readonly ClaimInput[]): pg.QueryConfig<[string]> {
  return {
    name: "chartkey-webhook-claim",
    text: `WITH wanted AS (
        SELECT * FROM json_to_recordset($1::json) AS w(id text, attempt int, "claimedAt" timestamp(3), "leaseUntil" timestamp(3))
      ), claimed AS (
        UPDATE "WebhookDelivery" d SET attempts = w.attempt, "lastAttemptAt" = w."claimedAt", "nextAttemptAt" = w."leaseUntil"
        FROM wanted w, "WebhookDelivery" p
        WHERE d.id = w.id AND p.id = w.id AND d.status = 'pending' AND d.attempts = w.attempt - 1
        RETURNING d.id, d.attempts, d.url, d."eventId", d."applicationId", p."lastAttemptAt" AS "previousAttemptAt"
      )
      SELECT ${CLAIMED_COLUMNS}`,
    values: [JSON.stringify(claims)],
  };
}

export type ReleaseInput = { id: string; attempt: number; previousAttemptAt: string | null; nextAttemptAt: Date };

/**
 * Gives claimed attempts back unmade (their endpoint had no room): the attempt count and `lastAttemptAt` as they
 * were, due again at `nextAttemptAt`. Guarded by the attempt number, so it never undoes a later claim.
 */
export function releaseAttempts(releases: readonly ReleaseInput[]): pg.QueryConfig<[string]> {
  return {
    name: "chartkey-webhook-release",
    text: `UPDATE "WebhookDelivery" d
      SET attempts = r.attempt - 1, "lastAttemptAt" = r."previousAttemptAt", "nextAttemptAt" = r."nextAttemptAt"
      FROM json_to_recordset($1::json) AS r(id text, attempt int, "previousAttemptAt" timestamp(3), "nextAttemptAt" timestamp(3))
      WHERE d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempt
      RETURNING d.id`,
    values: [JSON.stringify(releases)],
  };
}

export type AttemptRow = {
  id: string;
  deliveryId: string;
  attempt: number;
  status: "succeeded" | "failed" | "pending";
  nextAttemptAt: Date | null;
  responseCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
};

/**
 * Logs attempts and moves their deliveries on, in one statement guarded by each attempt number (the log's unique
 * (delivery, attempt) refuses a second row for the same attempt); returns the attempt ids whose delivery moved.
 */
export function recordAttempts(rows: readonly AttemptRow[]): pg.QueryConfig<[string]> {
  return {
    name: "chartkey-webhook-record",
    text: `WITH attempt AS (
        SELECT * FROM json_to_recordset($1::json) AS r(id text, "deliveryId" text, attempt int, status text,
          "nextAttemptAt" timestamp(3), "responseCode" int, "latencyMs" int, "responseExcerpt" text, error text)
      ), logged AS (
        INSERT INTO "WebhookDeliveryAttempt" (id, "deliveryId", attempt, "responseCode", "latencyMs", "responseExcerpt", error)
        SELECT id, "deliveryId", attempt, "responseCode", "latencyMs", "responseExcerpt", error FROM attempt
      )
      UPDATE "WebhookDelivery" d
      SET status = r.status::"DeliveryStatus", "responseCode" = r."responseCode", "lastError" = r.error, "nextAttemptAt" = r."nextAttemptAt"
      FROM attempt r
      WHERE d.id = r."deliveryId" AND d.status = 'pending' AND d.attempts = r.attempt
      RETURNING r.id`,
    values: [JSON.stringify(rows)],
  };
}
