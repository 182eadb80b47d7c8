import { attachments as readAttachments } from "./attachments";
import { CODE_SYSTEMS, codeable, codeables } from "./codes";
import { conceptKey, instantKey } from "./fact-key";
import { htmlText } from "./html-text";
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
  const { attachments, warnings } = readAttachments(objects(report.presentedForm));
  const conclusion = string(report.conclusion);
  const conclusionCodes = codeables(report.conclusionCode);
  const results = objects(report.result);
  // Without a presented form, a report that lists no results still says something in its narrative or conclusion.
  const narrative = attachments.length === 0 && results.length === 0 ? narrativeText(report) : null;
  if (attachments.length === 0 && narrative === null && conclusion === null && conclusionCodes.length === 0) {
    if (results.length === 0) return { skipReason: "DiagnosticReport has no presented form, no results and no narrative" };
    const present = results.some((result) => context.resolve(result, report) !== null);
    return {
      skipReason: present
        ? "DiagnosticReport has no presented form; its results name it as their report"
        : "DiagnosticReport has no presented form, and the results it lists are not in this import",
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
      description: conclusion,
      authors: reportAuthors(report, context),
      attachments,
      period: period(report.effectivePeriod),
      facility: null,
      practiceSetting: null,
      conclusionCodes,
      narrative,
    },
    warnings,
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

/** The report's XHTML narrative as plain text, unless the source only generated it from the structured data. */
function narrativeText(report: Json): string | null {
  const div = string(object(report.text)?.div);
  return div === null ? null : htmlText(div);
}
