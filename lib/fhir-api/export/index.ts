/** FHIR Bulk Data export (issue 52, point 2): /api/v1/fhir/$export and its status and files. */
export { cancelFhirExport, exportFhir, exportFhirGroup, getFhirExportFile, getFhirExportStatus, POLL_SECONDS, type ExportManifest, type ExportStatus, type KickOff } from "./bulk-export";
export { expireFhirExports } from "./expire-exports";
export { CONSENTED_GROUP_ID, FHIR_NDJSON, parseExportRequest } from "./export-request";
export {
  cancelFhirExportOperation,
  exportFhirGroupOperation,
  exportFhirOperation,
  FHIR_EXPORT_OPERATIONS,
  getFhirExportFileOperation,
  getFhirExportStatusOperation,
} from "./operations";
export { EXPORT_FILES_TTL_MS, FHIR_EXPORT_QUEUE, fhirExportJob, runFhirExport, type RunExportOptions } from "./run-export";
