export { deliverWebhook, enqueueDelivery, USER_AGENT, webhookDeliveryJob, webhookPayload, type DeliveryJob, type DeliveryOutcome } from "./deliver";
export { addressAllowed, guardedLookup, postWebhook, validateWebhookUrl, type PostResult, type UrlCheck, type WebhookEnvironment } from "./outbound";
export { backoffMs, deliveryPolicy, MAX_ATTEMPTS, type DeliveryPolicy } from "./policy";
export { redispatchDeliveries, redispatchWebhookDeliveries } from "./redispatch";
export { resendDelivery, sendTestEvent, type ResendResult } from "./resend";
export { webhookSignature, type SealedSigningSecrets } from "./signing";
export { getDelivery, listDeliveries, type DeliveryLogEntry } from "./delivery-log";
