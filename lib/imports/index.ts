export { runSourceImport, type FetchSourceResources, type ImportResult } from "./run-source-import";
export { importSource, sourceImportJob } from "./import-job";
export { continuousSyncJob, jittered, runDueSyncs, syncDelayMs, MAX_SYNC_BACKOFF_MS, SYNC_JITTER, type SyncClock, type SyncPass } from "./continuous-sync";
