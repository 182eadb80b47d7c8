import { CATEGORIES, type Category } from "./category-names";
import type { NormalizationSummary } from "./normalize";
import type { FidelityReport } from "./schemas";

// The fidelity report (fidelityReportSchema in schemas.ts) is stored with the import (SourceImport.recordCounts,
// skipCounts and fidelity) and shown on the session's and the snapshot's `sources[]` and the dashboard's subject page.

/** What SourceImport.fidelity stores beside recordCounts and skipCounts. */
type StoredFidelity = Pick<NormalizationSummary, "skippedByType" | "context" | "warnings">;

/** The fidelity column's value for a completed import's summary. */
export function fidelityColumn(summary: NormalizationSummary): StoredFidelity {
  return { skippedByType: summary.skippedByType, context: summary.context, warnings: summary.warnings };
}

/**
 * The report of a stored import, or null when there is none to show (no completed import yet, or one completed
 * before reports were stored). `categories` narrows the record counts to what the reader may see (a snapshot shows
 * only the categories it is authorized for; the others read 0).
 */
export function presentFidelityReport(
  row: { id: string; finishedAt: Date | null; recordCounts: unknown; fidelity: unknown } | null | undefined,
  categories: readonly Category[] = CATEGORIES,
): FidelityReport | null {
  if (!row?.finishedAt || !isObject(row.fidelity)) return null;
  const counts = isObject(row.recordCounts) ? row.recordCounts : {};
  const stored = row.fidelity;
  return {
    importId: row.id,
    finishedAt: row.finishedAt.toISOString(),
    records: Object.fromEntries(CATEGORIES.map((category) => [category, categories.includes(category) ? countOf(counts[category]) : 0])) as Record<Category, number>,
    skipped: Object.entries(isObject(stored.skippedByType) ? stored.skippedByType : {}).flatMap(([resourceType, reasons]) =>
      Object.entries(isObject(reasons) ? reasons : {}).map(([reason, count]) => ({ resourceType, reason, count: countOf(count) })),
    ),
    context: Object.entries(isObject(stored.context) ? stored.context : {}).map(([resourceType, count]) => ({ resourceType, count: countOf(count) })),
    warnings: Object.entries(isObject(stored.warnings) ? stored.warnings : {}).map(([warning, count]) => ({ warning, count: countOf(count) })),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function countOf(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) ? value : 0;
}
