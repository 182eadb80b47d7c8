import type { RecordData } from "../schemas";
import { codeable } from "./codes";
import { code, objects, string, type Json } from "./read";
import type { ReferenceResolver, ResourceEntry } from "./references";

type ReportReference = NonNullable<RecordData<"labs">["report"]>;

/** The DiagnosticReport that lists a resource among its results, if any. */
export type ReportFinder = (result: Json) => Json | null;

/**
 * Which report groups each result, found by following every DiagnosticReport's `result` references within the
 * batch (so the importer must pass a source's reports and observations together). A result listed by two reports
 * is named by the first; a report entered in error groups nothing.
 */
export function reportFinder(entries: ResourceEntry[], resolve: ReferenceResolver): ReportFinder {
  const reportOf = new Map<Json, Json>();
  for (const { resource } of entries) {
    if (resource.resourceType !== "DiagnosticReport" || code(resource.status) === "entered-in-error") continue;
    for (const reference of objects(resource.result)) {
      const result = resolve(reference, resource);
      if (result && !reportOf.has(result)) reportOf.set(result, resource);
    }
  }
  return (result) => reportOf.get(result) ?? null;
}

/** How a result names its report; recordId is filled in once the report's documents record, if any, has its id. */
export function reportReference(report: Json | null): ReportReference | null {
  if (!report) return null;
  return { resourceId: string(report.id), code: codeable(report.code), recordId: null };
}

/** A result's data with its report's documents record id, when the report became one. */
export function withReportRecordId(
  data: RecordData,
  report: Json | undefined,
  documentRecordIds: ReadonlyMap<Json, string>,
): RecordData {
  if (!report || !("report" in data) || !data.report) return data;
  return { ...data, report: { ...data.report, recordId: documentRecordIds.get(report) ?? null } };
}

/**
 * The documents record that serves each report with a presented form: its own, or that of the DocumentReference
 * carrying the same note (same-note.ts).
 */
export function reportDocumentRecordIds<C extends { resource: Json; resourceType: string }>(
  recordIds: ReadonlyMap<C, string>,
  servedAsDocuments: ReadonlyMap<C, C>,
): Map<Json, string> {
  const ids = new Map<Json, string>();
  for (const [candidate, recordId] of recordIds) {
    if (candidate.resourceType === "DiagnosticReport") ids.set(candidate.resource, recordId);
  }
  for (const [report, document] of servedAsDocuments) {
    const recordId = recordIds.get(document);
    if (recordId) ids.set(report.resource, recordId);
  }
  return ids;
}
