/**
 * Every error code of the contract (docs/contract.md, Errors) with its HTTP status. The envelope's `type` is derived from the status
 * (`api_error` for 5xx, `invalid_request_error` otherwise), so this table is the only place a status is decided.
 */
export const ERROR_STATUS = {
  missing_api_key: 401,
  invalid_api_key: 401,
  invalid_agent_token: 401,
  rate_limited: 429,
  invalid_json: 400,
  payload_too_large: 413,
  invalid_request: 400,
  invalid_idempotency_key: 400,
  idempotency_conflict: 409,
  invalid_categories: 400,
  invalid_pagination: 400,
  invalid_cursor: 400,
  not_found: 404,
  operation_forbidden: 403,
  app_scope_exceeded: 403,
  credential_scope_exceeded: 403,
  subject_mismatch: 403,
  authority_changed: 403,
  invalid_grant: 400,
  invalid_duration: 400,
  authority_unavailable: 503,
  app_suspended: 403,
  production_not_enabled: 403,
  session_completed: 409,
  session_expired: 410,
  sandbox_only: 403,
  sandbox_unavailable: 503,
  invalid_scenario: 400,
  session_not_simulatable: 409,
  sandbox_limit_reached: 409,
  subject_not_connected: 409,
  control_unsupported: 409,
  invalid_event_type: 400,
  invalid_source: 400,
  tefca_sandbox_unavailable: 503,
  session_not_found: 404,
  session_changed: 409,
  session_limit: 429,
  app_inactive: 403,
  app_scope_changed: 403,
  synthetic_patient_required: 400,
  invalid_documents: 400,
  invalid_state: 409,
  records_unavailable: 409,
  app_not_sandbox: 409,
  run_in_progress: 409,
  run_not_open: 409,
  phase_not_advanceable: 409,
  conformance_unavailable: 503,
  database_error: 500,
  // Ours: the database did not answer within the deployment's bound (lib/db/timeouts.ts); retryable, with Retry-After.
  database_unavailable: 503,
  internal_error: 500,
  // Demo-only codes.
  consent_scope_exceeded: 403,
  consent_inactive: 410,
  invalid_query: 400,
  // Synthetic health systems' FHIR APIs (RFC 6750 bearer token errors, as OperationOutcome).
  invalid_token: 401,
  insufficient_scope: 403,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorType = "api_error" | "invalid_request_error";

export function errorTypeForStatus(status: number): ErrorType {
  return status >= 500 ? "api_error" : "invalid_request_error";
}
