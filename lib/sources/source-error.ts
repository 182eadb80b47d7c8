/**
 * Why talking to a source failed, in terms an import job or the Connect flow can act on (and show as the
 * source's `lastError`). Messages never carry tokens, secrets or record contents.
 */
export type SourceErrorCode =
  /** The provider is not configured here, or its SMART configuration is missing or unusable. */
  | "provider_unavailable"
  /** The patient denied access, or the provider refused the authorization (its `error` is in the message). */
  | "authorization_denied"
  /** The callback's state is unknown, used, expired, or not the one expected. */
  | "invalid_state"
  /** The provider refused the code or the refresh token; the patient must sign in again. */
  | "reauthorization_required"
  /** Still 429 after every retry, or a Retry-After longer than we wait. */
  | "rate_limited"
  /** 5xx, timeouts or network failures after every retry. */
  | "source_unavailable"
  /** An answer that is not what FHIR or OAuth promise (a 4xx we cannot retry, a body that is not a Bundle). */
  | "invalid_response"
  /** The source has no tokens to use. */
  | "not_connected";

export class SourceError extends Error {
  readonly code: SourceErrorCode;
  /** The HTTP status that ended the attempt, when there was one. */
  readonly status: number | null;

  constructor(code: SourceErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "SourceError";
    this.code = code;
    this.status = options.status ?? null;
  }
}

/** The failures after which a source cannot be read again until the patient signs in to it again through Connect. */
export const REAUTHORIZATION_CODES: readonly SourceErrorCode[] = ["reauthorization_required", "not_connected"];

/** The stored form of a source's last failure (`lastError`, `<code>: <message>`), the prefix a reauthorization leaves. */
export const REAUTHORIZATION_ERROR_PREFIXES = REAUTHORIZATION_CODES.map((code) => `${code}:`);

/**
 * What an application is told about a source whose last import failed, from its `lastError`: `reauthorization_required`
 * when the health system refused the source's tokens (or it has none), so only the patient signing in again through
 * Connect can fix it; `source_unavailable` for anything a later sync may get past. Null when there was no failure.
 */
export function sourceWarningCode(lastError: string | null | undefined): "reauthorization_required" | "source_unavailable" | null {
  if (!lastError) return null;
  return REAUTHORIZATION_ERROR_PREFIXES.some((prefix) => lastError.startsWith(prefix)) ? "reauthorization_required" : "source_unavailable";
}
