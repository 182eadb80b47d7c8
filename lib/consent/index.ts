export { assertCategoryReadable, authorizeSubjectRead, readAuthorization, readScope, type ReadAuthorization } from "./authorize-read";
export { activeReceiptSelect, receiptParams, receiptValues, type ActiveReceiptRow } from "./receipt-sql";
export { expireConsentReceipts } from "./expire-cycle";
export { PURGED_TABLES, purgeEndedSubjects, purgeSubjectData, subjectsDueForPurge, type PurgeCounts, type PurgeOutcome, type PurgeReason } from "./purge-subject";
export { presentReceipt } from "./present-receipt";
export { readReceipt } from "./read-receipt";
export * from "./receipts";
export { getConsentReceipt } from "./operations";
export { consentReceiptSchema } from "./schemas";
