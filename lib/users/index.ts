export { listCategoryRecords } from "./category-records";
export { consentedSections } from "./consented-sections";
export { listUsers, type UserSummary } from "./list-users";
export { getHealthRecordOperation, listCategoryRecordsOperation, listRecordChangesOperation, listUsersOperation } from "./operations";
export { listRecordChanges } from "./record-changes";
export { getHealthRecord, SECTION_RECORDS } from "./snapshot";
export * from "./schemas";
