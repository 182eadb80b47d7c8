import { CATEGORIES, type Category } from "../categories";
import type { NormalizationResult } from "./types";

export type NormalizationSummary = {
  /** Records per category, every category present (0 when none). */
  records: Record<Category, number>;
  /** Skipped resources per reason, reasons in code-unit order so that a stored summary compares stably. */
  skipped: Record<string, number>;
  /** Records that carry warnings (e.g. unfilled template text read as null). */
  recordsWithWarnings: number;
};

/**
 * What one normalization produced, for an import to store beside its run. Counted before any merge across sources,
 * so for one source records + skipped = the resources of mapped types it sent.
 */
export function summarizeNormalization(result: NormalizationResult): NormalizationSummary {
  const records = Object.fromEntries(CATEGORIES.map((category) => [category, 0])) as Record<Category, number>;
  for (const fact of result.facts) records[fact.category] += 1;

  const skippedByReason = new Map<string, number>();
  for (const { reason } of result.skipped) skippedByReason.set(reason, (skippedByReason.get(reason) ?? 0) + 1);
  const reasons = [...skippedByReason.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  return {
    records,
    skipped: Object.fromEntries(reasons.map((reason) => [reason, skippedByReason.get(reason)!])),
    recordsWithWarnings: result.facts.filter((fact) => (fact.record.warnings?.length ?? 0) > 0).length,
  };
}
