import { attachment } from "./attachments";
import { CODE_SYSTEMS, codeable, codeables } from "./codes";
import { conceptKey, instantKey } from "./fact-key";
import { code, object, objects, string, type Json } from "./read";
import { referenceDisplay } from "./references";
import { dateTime, period } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

/**
 * A DiagnosticReport with a presented form (a clinical note, or a lab or imaging report rendered as text or PDF)
 * becomes a documents record. Its results are not copied here: each result's own lab or vital record names the
 * report (report-links.ts), and links to this record. A report without a presented form has nothing a documents
 * record could show, so it is reported as skipped: as carried by its results when it lists any. A report whose note
 * a DocumentReference also carries is dropped later in favour of that document (same-note.ts).
 */
export function normalizeDiagnosticReport(report: Json, context: NormalizeContext): DraftOutcome {
  const attachments = objects(report.presentedForm).flatMap((form) => attachment(form) ?? []);
  if (attachments.length === 0) {
    return {
      skipReason:
        objects(report.result).length > 0
          ? "DiagnosticReport has no presented form; its results name it as their report"
          : "DiagnosticReport has no presented form and no results",
    };
  }
  const categories = codeables(report.category);
  const reportCode = codeable(report.code) ?? categories[0];
  if (!reportCode) return { skipReason: "DiagnosticReport has no code or category" };
  const date = reportDate(report);
  return {
    keyParts: ["diagnosticReport", conceptKey(reportCode, [CODE_SYSTEMS.loinc]), instantKey(date)],
    data: {
      category: "documents",
      kind: "diagnosticReport",
      status: code(report.status),
      code: reportCode,
      docStatus: null,
      categories,
      date,
      description: string(report.conclusion),
      authors: reportAuthors(report, context),
      attachments,
      period: period(report.effectivePeriod),
      facility: null,
      practiceSetting: null,
    },
  };
}

/** When the report applies to the patient (effective[x]), else when it was released. */
function reportDate(report: Json): string | null {
  return dateTime(report.effectiveDateTime) ?? dateTime(object(report.effectivePeriod)?.start) ?? dateTime(report.issued);
}

/** Who is responsible for the report: its performers, then those who interpreted it, each named once. */
function reportAuthors(report: Json, context: NormalizeContext): string[] {
  const people = [...objects(report.performer), ...objects(report.resultsInterpreter)];
  return [...new Set(people.flatMap((person) => referenceDisplay(person, report, context.resolve) ?? []))];
}
