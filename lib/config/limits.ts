/**
 * Deployment-set limits, read from the environment once per process. Each has the spec's value (or the design's
 * choice where the spec leaves it open) as its default; a deployment or the bench may change them.
 */
function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got ${raw})`);
  return value;
}

/** 300 requests per minute per key (docs/contract.md, Limits). */
export function keyRequestsPerMinute(): number {
  return positiveInteger("CHARTKEY_RATE_LIMIT_PER_MINUTE", 300);
}

/** Failed authentications one network address may make per minute before it is refused outright. */
export function authFailuresPerMinute(): number {
  return positiveInteger("CHARTKEY_AUTH_FAILURES_PER_MINUTE", 100);
}

/**
 * Password hashes (argon2id, tens of milliseconds of CPU each) one network address (IPv6: its /64) may have the
 * dashboard compute per minute for sign-ins and sign-ups, right or wrong.
 */
export function passwordChecksPerMinute(): number {
  return positiveInteger("CHARTKEY_PASSWORD_CHECKS_PER_MINUTE", 30);
}

/**
 * How many reverse proxies in front of the app append to X-Forwarded-For. 0 (the default) means the client
 * address is the socket's peer, and forwarding headers are ignored because any client can write them.
 */
export function trustedProxyHops(): number {
  const raw = process.env.CHARTKEY_TRUSTED_PROXY_HOPS;
  if (raw === undefined || raw === "" || raw === "0") return 0;
  return positiveInteger("CHARTKEY_TRUSTED_PROXY_HOPS", 0);
}

/** Active synthetic patients (simulated, not yet purged) one application may have (docs/contract.md, Limits: 25). */
export function sandboxPatientLimit(): number {
  return positiveInteger("CHARTKEY_SANDBOX_PATIENT_LIMIT", 25);
}

/** Requests per minute for all of one application's delegated credentials together, per environment. */
export function agentRequestsPerMinute(): number {
  return positiveInteger("CHARTKEY_AGENT_RATE_LIMIT_PER_MINUTE", 300);
}

/**
 * How often continuous consent re-imports each live source (design §6 Sources: every 6 hours), in minutes; each
 * source's next sync is jittered around it (lib/imports/continuous-sync.ts).
 */
export function syncIntervalMinutes(): number {
  return positiveInteger("CHARTKEY_SYNC_INTERVAL_MINUTES", 360);
}

/** Scheduled source imports the deployment runs at once, across all its workers. */
export function syncConcurrency(): number {
  return positiveInteger("CHARTKEY_SYNC_CONCURRENCY", 4);
}

/**
 * Days the platform keeps a subject's data for an application after its last receipt ended (revoked or expired)
 * before the retention cycle purges it (lib/consent/purge-subject.ts); 0 purges on the cycle's next run.
 */
export function retentionDays(): number {
  const raw = process.env.CHARTKEY_RETENTION_DAYS;
  if (raw === undefined || raw === "") return 30;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`CHARTKEY_RETENTION_DAYS must be a whole number of at least 0 (got ${raw})`);
  return value;
}
