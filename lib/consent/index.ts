export { assertCategoryReadable, authorizeSubjectRead, type ReadAuthorization } from "./authorize-read";
export { expireConsentReceipts } from "./expire-cycle";
export { presentReceipt } from "./present-receipt";
export { readReceipt } from "./read-receipt";
export * from "./receipts";
export { getConsentReceipt } from "./operations";
export { consentReceiptSchema } from "./schemas";
