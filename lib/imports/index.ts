export { importCompletedChannel, IMPORT_TRIGGERS, runSourceImport, type FetchSourceResources, type ImportPhases, type ImportResult, type ImportTrigger } from "./run-source-import";
export { importSource, sourceImportJob } from "./import-job";
export { continuousSyncJob, runDueSyncs } from "./continuous-sync";
export * from "./import-history";
export * from "./rerun-sync";
