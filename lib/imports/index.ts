export { runSourceImport, type FetchSourceResources, type ImportResult } from "./run-source-import";
export { sourceImportJob } from "./import-job";
