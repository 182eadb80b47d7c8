import { route, type DeclaredHandler } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import { FHIR_JSON } from "@/lib/fhir";
import {
  cancelFhirExport,
  cancelFhirExportOperation,
  exportFhir,
  exportFhirGroup,
  exportFhirGroupOperation,
  exportFhirOperation,
  getFhirExportFile,
  getFhirExportFileOperation,
  getFhirExportStatus,
  getFhirExportStatusOperation,
  POLL_SECONDS,
} from "@/lib/fhir-api";

/** The FHIR base clients are given: `{origin}/api/v1/fhir`. */
const fhirBase = (url: URL) => `${publicOrigin(url.origin)}/api/v1/fhir`;

/** The kick-off's 202: the status URL in Content-Location, and an informational OperationOutcome. */
const accepted = (url: URL, exportId: string) => ({
  status: 202,
  headers: { "Content-Location": `${fhirBase(url)}/$export-status/${exportId}` },
  body: { resourceType: "OperationOutcome", issue: [{ severity: "information", code: "informational", diagnostics: `Export ${exportId} accepted.` }] },
});

/** `/api/v1/fhir/$export...` (issue 52, point 2): PLATFORM_HANDLERS appends these. */
export const FHIR_EXPORT_HANDLERS: readonly DeclaredHandler[] = [
  route(exportFhirOperation, async ({ auth, url, request }) =>
    accepted(url, await exportFhir({ key: auth, params: url.searchParams, prefer: request.headers.get("prefer"), requestUrl: url.href })),
  ),
  route(exportFhirGroupOperation, async ({ auth, params, url, request }) =>
    accepted(url, await exportFhirGroup({ key: auth, groupId: params.groupId, params: url.searchParams, prefer: request.headers.get("prefer"), requestUrl: url.href })),
  ),
  route(getFhirExportStatusOperation, async ({ auth, params, url }) => {
    const status = await getFhirExportStatus(auth, params.exportId, fhirBase(url));
    if (status.done) return { body: status.manifest };
    return {
      status: 202,
      headers: { "X-Progress": status.progress, "Retry-After": String(POLL_SECONDS), "Content-Type": FHIR_JSON },
      body: { resourceType: "OperationOutcome", issue: [{ severity: "information", code: "informational", diagnostics: `In progress: ${status.progress}.` }] },
    };
  }),
  route(cancelFhirExportOperation, async ({ auth, params }) => ({ status: 202, body: await cancelFhirExport(auth, params.exportId) })),
  route(getFhirExportFileOperation, async ({ auth, params }) => getFhirExportFile(auth, params.fileId)),
];
