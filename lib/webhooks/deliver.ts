import { pgPool } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { WorkerLoop } from "@/lib/jobs";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { validateWebhookUrl } from "@/lib/outbound";
import { processState } from "@/lib/process-state";
import { claimAttempts, claimDueAttempts, recordAttempts, releaseAttempts, type AttemptRow, type ClaimedRow, type ClaimInput, type ReleaseInput } from "./delivery-sql";
import { EndpointLanes, endpointOf } from "./endpoint-lanes";
import { ENDPOINT_CONNECTIONS, postWebhook } from "./outbound";
import { deliveryPolicy, type DeliveryPolicy } from "./policy";
import { webhookSignature } from "./signing";
import { statementBatch } from "./statement-batch";
import { inSpan } from "@/lib/tracing";

/** One attempt of one delivery: `attempt` is the attempt to make (1-based). */
export type DeliveryAttempt = { deliveryId: string; attempt: number };

/** `deferred`: the endpoint had no room, so the attempt was given back unmade, due again a little later. */
export type DeliveryOutcome = "succeeded" | "retrying" | "failed" | "skipped" | "deferred";

export const USER_AGENT = "Chartkey-Webhooks/1.0";

/** The body receivers get: `{ id, type, timestamp, environment, data }`, `id` being the event's `evt_` id. */
export function webhookPayload(event: { id: string; type: string; createdAt: Date; environment: string; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), environment: event.environment, data: event.data });
}

/** Attempts a worker holds at once (running or waiting for their endpoint); past this its loop stops claiming. */
const MAX_HELD = 500;
/**
 * How long an attempt may wait for a place at its endpoint before it is given back unmade: with the 10-second
 * timeout it stays inside the claim's 20-second lease, so a waiting attempt is never taken for a dead worker's.
 */
const LANE_WAIT_MS = 5000;
/** How long the outcomes of attempts are gathered into one statement. */
const RECORD_WINDOW_MS = 20;
/** How long an attempt given back for want of room waits before it is offered again (± half, spread out). */
const DEFER_MS = 5000;

// The attempts this process holds, per endpoint (as many running as its connection pool holds) and in all.
const lanes = processState("webhooks.lanes", () => new EndpointLanes(ENDPOINT_CONNECTIONS, MAX_HELD, LANE_WAIT_MS));

/** Deliveries claimed per statement, at most (fewer when the worker holds nearly `MAX_HELD`). */
const CLAIM_BATCH = 100;
/** How often an idle worker looks for due deliveries (sooner when one of its own attempts schedules one). */
const POLL_MS = 200;
/** How long the loop pauses after a failed claim (the database went away) before it tries again. */
const ERROR_PAUSE_MS = 1000;

/** A loop's sleep between claims, which an attempt scheduling a delivery sooner cuts short. */
class Sleep {
  private at = Infinity;
  private timer: NodeJS.Timeout | undefined;
  private resolve: (() => void) | undefined;

  /** Sleeps until `ms` have passed, `wakeAt` asks for sooner, or `wake()` is called. */
  for(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.at = Infinity;
      this.wakeAt(Date.now() + ms);
    });
  }

  /** Makes the sleep, if one is under way, end at `at` at the latest. */
  wakeAt(at: number): void {
    if (!this.resolve || at >= this.at) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => this.wake(), Math.max(0, at - Date.now()));
  }

  wake(): void {
    clearTimeout(this.timer);
    const resolve = this.resolve;
    this.resolve = undefined;
    this.at = Infinity;
    resolve?.();
  }
}

// The sleeps of the delivery loops running in this process.
const sleeps = processState("webhooks.sleeps", () => new Set<Sleep>());

/** A delivery of this process's is due at `at`: its loops, if asleep, look for due deliveries then at the latest. */
function wakeAt(at: number): void {
  for (const sleep of sleeps) sleep.wakeAt(at);
}

/**
 * Claims due deliveries and starts their attempts until stopped: a full batch is followed by the next claim at
 * once, a short one by a sleep of `POLL_MS` (or until an attempt of this process schedules a retry sooner). The
 * loop takes no more while the process holds `MAX_HELD` attempts, so a backlog stays in the table, where any other
 * worker can claim it.
 */
async function claimLoop(running: { stopped: boolean }, sleep: Sleep, policy: DeliveryPolicy): Promise<void> {
  while (!running.stopped) {
    await lanes.room();
    if (running.stopped) break;
    const limit = Math.min(CLAIM_BATCH, lanes.free());
    let claimed: ClaimedRow[];
    try {
      const claimedAt = new Date();
      const leaseUntil = new Date(claimedAt.getTime() + policy.leaseMs);
      claimed = (await pgPool().query<ClaimedRow>(claimDueAttempts({ now: claimedAt, leaseUntil, limit, maxAttempts: policy.maxAttempts }))).rows;
      for (const row of claimed) tracedAttempt({ deliveryId: row.id, attempt: row.attempts }, row, claimedAt, policy).catch(logFailure(row.id));
    } catch (error) {
      log.warn({ err: (error as Error).message }, "could not claim webhook deliveries");
      await sleep.for(ERROR_PAUSE_MS);
      continue;
    }
    if (claimed.length < limit) await sleep.for(POLL_MS);
  }
}

// The attempt's log could not be written (the database went away): its lease runs out and the next claim logs
// it as interrupted and makes the next attempt.
const logFailure = (deliveryId: string) => (error: unknown) => log.warn({ deliveryId, err: (error as Error).message }, "could not log a webhook attempt");

/**
 * The delivery queue, worked by every worker: the `WebhookDelivery` rows themselves, claimed in batches (see
 * `claimDueAttempts`), each claim leasing its attempt for `leaseMs`. An attempt's POST runs on while the loop
 * claims more, so a receiver that holds its connections for the full 10 seconds holds only its own endpoint's
 * places (as many as its connection pool). A failed attempt's retry is the row's `nextAttemptAt`; a worker that
 * dies mid-attempt leaves the lease, after which any worker's claim logs the attempt as interrupted and makes the
 * next one. Stopping ends the claims, then lets the attempts started finish and log their outcome.
 */
export const webhookDeliveryJob: WorkerLoop = {
  name: "webhook-delivery",
  start: () => {
    const running = { stopped: false };
    const sleep = new Sleep();
    sleeps.add(sleep);
    const loop = claimLoop(running, sleep, deliveryPolicy());
    return {
      stop: async () => {
        running.stopped = true;
        sleep.wake();
        await loop;
        sleeps.delete(sleep);
        await lanes.idle();
      },
    };
  },
};

/**
 * Makes attempt `attempt` of one delivery now, at most once, and answers how it went (the claim's loop does this for
 * the due deliveries it claims; tests make chosen attempts themselves). The attempt is claimed with a conditional
 * update (`status = pending AND attempts = attempt - 1`), so an attempt made already, or a delivery settled, is
 * `skipped`.
 */
export async function deliverWebhook(job: DeliveryAttempt, policy: DeliveryPolicy = deliveryPolicy()): Promise<DeliveryOutcome> {
  const claimedAt = new Date();
  const claimed = await claimAttempt({ id: job.deliveryId, attempt: job.attempt, claimedAt, leaseUntil: new Date(claimedAt.getTime() + policy.leaseMs) });
  if (!claimed) return "skipped";
  return tracedAttempt(job, claimed, claimedAt, policy);
}

/** An attempt in a span of its own (`webhook.delivery`, the POST to the endpoint beneath it), with its number and outcome. */
function tracedAttempt(job: DeliveryAttempt, claimed: ClaimedRow, claimedAt: Date, policy: DeliveryPolicy): Promise<DeliveryOutcome> {
  return inSpan("webhook.delivery", { "chartkey.webhook.attempt": job.attempt, "chartkey.environment": claimed.environment }, async (span) => {
    const outcome = await startAttempt(job, claimed, claimedAt, policy);
    span.setAttribute("chartkey.webhook.outcome", outcome);
    return outcome;
  });
}

/**
 * Queues a claimed attempt at its endpoint and makes it once admitted. An endpoint that already runs as many
 * attempts as its connection pool holds queues this one for a few seconds, then gives it back unmade, due again a
 * few seconds later (`deferred`). The attempt is logged and the delivery moved on in one statement guarded by the
 * same attempt number.
 */
async function startAttempt(job: DeliveryAttempt, claimed: ClaimedRow, claimedAt: Date, policy: DeliveryPolicy): Promise<DeliveryOutcome> {
  const checked = validateWebhookUrl(claimed.url, claimed.environment);
  if (!checked.ok) return refuseAttempt(job, claimed, checked.reason);
  const endpoint = endpointOf(claimed.url);
  if (await lanes.enter(endpoint)) {
    // The endpoint's place is given up as soon as the request is done, not after the outcome's 20 ms log window:
    // a place held while logging would cap a receiver at 64 attempts per window.
    let left = false;
    const leave = () => {
      if (!left) lanes.leave(endpoint);
      left = true;
    };
    return makeAttempt(job, claimed, claimedAt, policy, leave).finally(() => {
      leave();
      lanes.finish();
    });
  }
  const nextAttemptAt = new Date(Date.now() + DEFER_MS * (0.5 + Math.random()));
  if (await releaseAttempt({ id: claimed.id, attempt: job.attempt, previousAttemptAt: claimed.previousAttemptAt, nextAttemptAt })) wakeAt(nextAttemptAt.getTime());
  countAttempt(job, "deferred");
  return "deferred";
}

/**
 * A URL the delivery's rules refuse by its form (scheme, malformed, credentials, a refused address or localhost as
 * written: what needs no DNS, `validateWebhookUrl` for the event's environment) is refused the same way at every
 * attempt, so the delivery fails at once, unsent and not retried, with the reason logged. A name that resolves to a
 * refused address is retried instead: DNS can change, and the URL is checked again when it connects.
 */
async function refuseAttempt(job: DeliveryAttempt, claimed: ClaimedRow, reason: string): Promise<DeliveryOutcome> {
  await recordAttempt({
    id: newId("wha_"),
    deliveryId: claimed.id,
    attempt: job.attempt,
    status: "failed",
    nextAttemptAt: null,
    responseCode: null,
    latencyMs: 0,
    responseExcerpt: null,
    error: `refused: ${reason}`,
  });
  countAttempt(job, "failed", 0);
  return "failed";
}

async function makeAttempt(job: DeliveryAttempt, claimed: ClaimedRow, claimedAt: Date, policy: DeliveryPolicy, posted: () => void): Promise<DeliveryOutcome> {
  const event = { id: claimed.eventId, type: claimed.type, environment: claimed.environment, data: claimed.data, createdAt: new Date(claimed.createdAt) };
  const body = webhookPayload(event);
  const signature = webhookSignature(
    {
      current: claimed.signingSecretEncrypted,
      previous: claimed.previousSigningSecretEncrypted,
      previousExpiresAt: claimed.previousSigningSecretExpiresAt ? new Date(claimed.previousSigningSecretExpiresAt) : null,
    },
    event.id,
    claimedAt,
    body,
  );
  const result = await postWebhook(
    claimed.url,
    event.environment,
    body,
    {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "webhook-id": event.id,
      "webhook-timestamp": Math.floor(claimedAt.getTime() / 1000).toString(),
      "webhook-signature": signature,
    },
    policy.timeoutMs,
  );
  posted();

  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
  const last = job.attempt >= policy.maxAttempts;
  const nextAttemptAt = succeeded || last ? null : new Date(Date.now() + policy.backoffMs(job.attempt));
  const outcome: DeliveryOutcome = succeeded ? "succeeded" : last ? "failed" : "retrying";
  const status = succeeded ? "succeeded" : last ? "failed" : "pending";
  const moved = await recordAttempt({
    id: newId("wha_"),
    deliveryId: claimed.id,
    attempt: job.attempt,
    status,
    nextAttemptAt,
    responseCode: result.status,
    latencyMs: result.latencyMs,
    responseExcerpt: result.excerpt,
    error: result.error,
  });
  if (moved && nextAttemptAt) wakeAt(nextAttemptAt.getTime());
  countAttempt(job, outcome, result.latencyMs);
  return outcome;
}

/** An attempt in the metrics: its outcome, whether it retried an earlier one, and how long the receiver took. */
function countAttempt(job: DeliveryAttempt, outcome: DeliveryOutcome, latencyMs?: number): void {
  const measured = metrics();
  measured.webhookAttempts.inc({ outcome, retry: job.attempt > 1 ? "true" : "false" });
  if (latencyMs !== undefined) measured.webhookSeconds.observe({ outcome }, latencyMs / 1000);
}

// The hot path's statements, each gathering the calls of one event-loop turn (the releases of attempts that waited
// together, the outcomes that arrived together) into one round trip.
const claimAttemptsOf = async (claims: ClaimInput[]): Promise<(ClaimedRow | undefined)[]> => {
  const { rows } = await pgPool().query<ClaimedRow>(claimAttempts(claims));
  // Given two claims of one attempt, the statement claimed it once: the first gets it.
  const byAttempt = new Map(rows.map((row) => [`${row.id}:${row.attempts}`, row]));
  return claims.map(({ id, attempt }) => {
    const key = `${id}:${attempt}`;
    const row = byAttempt.get(key);
    byAttempt.delete(key);
    return row;
  });
};
const claimAttempt = statementBatch(claimAttemptsOf, async (claim: ClaimInput) => (await claimAttemptsOf([claim]))[0]);

const releaseAttemptsOf = async (releases: ReleaseInput[]): Promise<boolean[]> => {
  const { rows } = await pgPool().query<{ id: string }>(releaseAttempts(releases));
  const released = new Set(rows.map((row) => row.id));
  return releases.map(({ id }) => released.has(id));
};
const releaseAttempt = statementBatch(releaseAttemptsOf, async (release: ReleaseInput) => (await releaseAttemptsOf([release]))[0]!);

const recordAttemptsOf = async (attempts: AttemptRow[]): Promise<boolean[]> => {
  const { rows } = await pgPool().query<{ id: string }>(recordAttempts(attempts));
  const moved = new Set(rows.map((row) => row.id));
  return attempts.map(({ id }) => moved.has(id));
};
// Outcomes arrive one by one as receivers answer: gathered over 20 ms, they are one statement and one commit instead
// of dozens (each commit waits for its WAL flush), which is most of what an attempt costs PostgreSQL.
const recordAttempt = statementBatch(recordAttemptsOf, async (attempt: AttemptRow) => (await recordAttemptsOf([attempt]))[0]!, 500, RECORD_WINDOW_MS);
