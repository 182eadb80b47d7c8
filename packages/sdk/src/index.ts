// @chartkey/sdk: the typed client of the Chartkey API (types generated from its OpenAPI document).
export { Chartkey, unwrap, type ChartkeyOptions } from "./client.js";
export type { Category, CategoryRecordsPage, ConnectSession, HealthRecord, RecordChange, RecordChangePage, Schemas, User } from "./types.js";
export { ChartkeyError, isChartkeyError, statusOf, type ErrorEnvelope } from "./errors.js";
export { ERROR_STATUS, type ErrorCode } from "./error-codes.js";
export type { SyncHandlers, SyncResult } from "./sync.js";
export { FhirReads, type FhirResourceOf, type FhirSearchParams, type FhirType } from "./fhir.js";
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookEvent, type WebhookEventType } from "./webhooks.js";
export type { components, operations, paths } from "./schema.js";
