export { runSourceImport, type FetchSourceResources, type ImportResult } from "./run-source-import";
export { importSource, sourceImportJob } from "./import-job";
export { continuousSyncJob, runDueSyncs } from "./continuous-sync";
