// The synthetic TEFCA sandbox: sessions that discover, retrieve and export a fixed fictional patient's records
// across a synthetic network (docs/tefca.md).
export { getTefcaConfig } from "./config";
export { createTefcaSession } from "./create-session";
export { exportTefcaRecords, type TefcaNormalizedExport } from "./export-records";
export { TEFCA_ACTIVE_SESSION_LIMIT, TEFCA_SESSION_MINUTES } from "./limits";
export { TEFCA_NETWORK, TEFCA_PATIENT_ID } from "./network";
export * from "./operations";
export { pruneTefcaSessions, TEFCA_SESSION_RETENTION_HOURS } from "./prune-cycle";
export { getTefcaSession } from "./read-session";
export * from "./schemas";
export { etagOf, withEtag } from "./versioning";
export { discoverTefcaDocuments, retrieveTefcaDocuments, revokeTefcaSession } from "./workflow";
