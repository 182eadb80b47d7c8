export { deliverWebhook, USER_AGENT, webhookDeliveryJob, webhookPayload, type DeliveryAttempt, type DeliveryOutcome } from "./deliver";
export { checkWebhookDestination, NOT_PUBLIC, type UrlCheck, type WebhookEnvironment } from "@/lib/outbound";
export { postWebhook, type PostResult } from "./outbound";
export { backoffMs, deliveryPolicy, MAX_ATTEMPTS, type DeliveryPolicy } from "./policy";
export { resendDelivery, sendTestEvent, type ResendResult } from "./resend";
export { webhookSignature, type SealedSigningSecrets } from "./signing";
export { deliveryState, getDelivery, listDeliveries, type DeliveryLogEntry, type DeliveryState } from "./delivery-log";
export { deliveryFix } from "./delivery-fix";
export { isSampleEventType, SAMPLE_EVENT_TYPES, type SampleEventType } from "./schemas";
