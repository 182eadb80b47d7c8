import { FORCED_RATE_LIMITS, FORCED_RETRY_AFTER_SECONDS, IN_FLIGHT_ALLOWANCE_MS, PHASE_TIMEOUT_MS, RETRY_TOLERANCE_MS, SIGNAL_WAIT_MS, WATCH_MS, type Phase } from "./limits";

const s = (ms: number) => `${ms / 1000} s`;

/**
 * What each phase does and when it ends, stated before a run starts: the docs, the OpenAPI description of
 * POST /conformance/runs and the dashboard's Conformance page all render these words, and the run follows them
 * (lib/conformance/drive-run.ts). No phase waits for the integration to go quiet.
 */
export const PHASE_RULES: readonly { phase: Phase; title: string; does: string; ends: string }[] = [
  {
    phase: "session",
    title: "Connect session",
    does: "The integration creates a Connect session with the run key; the platform completes it as the scenario's patient and imports the records.",
    ends: "When that session has completed (advance is refused before).",
  },
  {
    phase: "rate_limits",
    title: "Rate limits",
    does: `The run key's first ${FORCED_RATE_LIMITS} record reads (snapshot, category page or change feed) are answered 429 rate_limited with Retry-After: ${FORCED_RETRY_AFTER_SECONDS}. A continuous run then changes the subject's records (records.updated) as soon as every shared category has been read from the start once (its first page, or a snapshot).`,
    ends: `One-time: once both 429s were answered, a read succeeded after the second, and the import finished. Continuous: once the change feed was read after the change and ${s(WATCH_MS)} have passed since the change (or ${s(SIGNAL_WAIT_MS)} after the run changed the records).`,
  },
  {
    phase: "consent_revocation",
    title: "Consent revocation",
    does: "The run revokes the subject's consent as the patient (consent.revoked).",
    ends: `${s(WATCH_MS)} after the integration was told of the revocation (or ${s(SIGNAL_WAIT_MS)} after the revocation if nothing told it).`,
  },
  {
    phase: "webhook_probes",
    title: "Webhook probes",
    does: "Six webhooks go to the application's webhook URL: a valid one, four corrupted ones (bad signature, tampered body, timestamp 10 minutes old, another secret), then the valid one again with the same webhook-id (a redelivery).",
    ends: "When every probe was answered (advance is refused while they are being sent); the run then ends with its verdict and the run key is revoked.",
  },
];

/** Every check, its phase, and the rule it is graded by, windows and allowances included. */
export const CHECK_RULES: readonly { id: string; phase: Phase; title: string; rule: string }[] = [
  {
    id: "connect_session",
    phase: "session",
    title: "Connect session created with the run key",
    rule: "Passed when a Connect session created with the run key completed.",
  },
  {
    id: "retry_after",
    phase: "rate_limits",
    title: "Forced 429s retried no sooner than Retry-After",
    rule: `Each forced 429's next read of the same operation and subject must start Retry-After or more after the 429 was answered (${RETRY_TOLERANCE_MS} ms measurement tolerance); failed if sooner, inconclusive if none was forced or retried.`,
  },
  {
    id: "change_feed",
    phase: "rate_limits",
    title: "Changes read from the saved changeCursor (continuous runs)",
    rule: `After the change is written, the change feed must be read, and no snapshot or category first page (a read without a cursor) may start after it: every category was read from the start before the run made its change. Later pages of a walk begun earlier are fine. Watched for ${s(WATCH_MS)} after the change.`,
  },
  {
    id: "stops_on_revocation",
    phase: "consent_revocation",
    title: "No record read after the revocation was signalled",
    rule: `The integration is told of the revocation at the first of: the end of a consent.revoked delivery attempt it answered 2xx, the answer to a read of the subject refused 404, or the answer to a read of the revoked receipt (a delivery it refused or never answered tells it nothing). No read of the subject may start ${s(IN_FLIGHT_ALLOWANCE_MS)} or more after that (reads already in flight are allowed). The subject's reads are watched for ${s(WATCH_MS)} after the signal and until the run ends; advancing sooner leaves the check inconclusive.`,
  },
  {
    id: "webhook_valid",
    phase: "webhook_probes",
    title: "Correctly signed webhooks accepted (2xx)",
    rule: "The valid probe must be answered 2xx, whatever its event type (conformance.probe).",
  },
  {
    id: "webhook_corrupted",
    phase: "webhook_probes",
    title: "Corrupted webhooks rejected (4xx)",
    rule: "Each corrupted probe must be answered 4xx: verify the signature over webhook-id, webhook-timestamp and the raw body, with the 5-minute timestamp tolerance.",
  },
  {
    id: "webhook_redelivery",
    phase: "webhook_probes",
    title: "A redelivered webhook accepted (2xx)",
    rule: "The valid probe sent again with the same webhook-id (a fresh timestamp and signature) must be answered 2xx too, not 409: a sender retries when it missed your answer. Inconclusive when the original was not accepted.",
  },
];

/** The rules as one paragraph, for the OpenAPI description of POST /conformance/runs. */
export function rulesParagraph(): string {
  const phases = PHASE_RULES.map((phase) => `${phase.phase}: ${phase.does} Ends: ${phase.ends}`).join(" ");
  const checks = CHECK_RULES.map((check) => `${check.id}: ${check.rule}`).join(" ");
  return `Phases, in order. ${phases} A phase the integration does nothing in ends after ${PHASE_TIMEOUT_MS / 60_000} minutes. Checks. ${checks}`;
}
