export { readCategoryRecords } from "./category-records";
export { consentedSections } from "./consented-sections";
export { listUsers as readUsers, type UserSummary } from "./list-users";
export { getHealthRecord, listCategoryRecords, listRecordChanges, listUsers } from "./operations";
export { readRecordChanges } from "./record-changes";
export { readSnapshot, SECTION_RECORDS } from "./snapshot";
export * from "./schemas";
