export { importCompletedChannel, runSourceImport, type FetchSourceResources, type ImportPhases, type ImportResult } from "./run-source-import";
export { importSource, sourceImportJob } from "./import-job";
export { continuousSyncJob, runDueSyncs } from "./continuous-sync";
