/** Active synthetic TEFCA sessions (not expired, not revoked) one application may hold (docs/contract.md, Limits). */
export const TEFCA_ACTIVE_SESSION_LIMIT = 20;

/** A TEFCA session expires this long after its creation, whatever its state. */
export const TEFCA_SESSION_MINUTES = 15;

/** How long a TEFCA request waits for a lock on its storage before answering 503 `tefca_sandbox_unavailable`. */
export const TEFCA_LOCK_TIMEOUT_MS = 5_000;
