import { HEADER, type ErrorCode } from "@/lib/http";
import type { OperationDeclaration } from "./operation";

/** What a keyed request can meet before the operation runs: the key checks, the limits and the database. */
const KEYED_ERRORS: ErrorCode[] = [
  "missing_api_key",
  "invalid_api_key",
  "invalid_agent_token",
  "operation_forbidden",
  "authority_unavailable",
  "production_not_enabled",
  "app_suspended",
  "rate_limited",
  "database_error",
  "database_unavailable",
];
/** What a delegated credential can meet on a read it may be granted, beyond a key's errors. */
const CREDENTIAL_ERRORS: ErrorCode[] = ["credential_scope_exceeded", "subject_mismatch", "authority_changed"];
const BODY_ERRORS: ErrorCode[] = ["invalid_json", "invalid_request", "payload_too_large"];
const IDEMPOTENCY_ERRORS: ErrorCode[] = ["invalid_idempotency_key", "idempotency_conflict"];

/**
 * Every error code an operation can answer: the pipeline's steps contribute theirs (authentication, limits, body
 * reading, idempotency, the catch-all), the declaration adds its own. The documents list exactly these.
 */
export function documentedErrors(declaration: OperationDeclaration): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (declaration.auth === "key") codes.push(...KEYED_ERRORS);
  if (declaration.agentOperation) codes.push(...CREDENTIAL_ERRORS);
  if (declaration.profile.addressLimit) codes.push("rate_limited");
  if (declaration.body) codes.push(...BODY_ERRORS);
  if (declaration.idempotent) codes.push(...IDEMPOTENCY_ERRORS);
  // The family checks a sent Idempotency-Key's shape on every operation, not only where it is honoured.
  else if (declaration.profile.idempotencyKeys) codes.push("invalid_idempotency_key");
  codes.push(...declaration.errors, "internal_error");
  return [...new Set(codes)];
}

/** Response headers beyond the family's own: the RateLimit fields wherever a limit applies, and the operation's. */
export function documentedHeaders(declaration: OperationDeclaration): string[] {
  const limited = declaration.auth === "key" || declaration.profile.addressLimit !== undefined;
  return [...(limited ? [HEADER.rateLimitPolicy, HEADER.rateLimit] : []), ...(declaration.headers ?? [])];
}
