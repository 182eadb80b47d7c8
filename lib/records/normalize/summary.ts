import { CATEGORIES, type Category } from "../categories";
import type { SkippedResource } from "./types";

/** What a summary reads of a normalization: each fact's category and warnings, the skips and the context. */
export type NormalizationCounts = {
  facts: readonly { category: Category; record: { warnings?: readonly string[] } }[];
  skipped: readonly SkippedResource[];
  context?: readonly SkippedResource[];
};

export type NormalizationSummary = {
  /** Records per category, every category present (0 when none). */
  records: Record<Category, number>;
  /** Skipped resources per reason, reasons in code-unit order so that a stored summary compares stably. */
  skipped: Record<string, number>;
  /** Records that carry warnings (e.g. unfilled template text read as null). */
  recordsWithWarnings: number;
  /** Skips per resource type, then per reason: what a health system's data did not yield, and why. */
  skippedByType: Record<string, Record<string, number>>;
  /** Resources of types outside the ten categories (read only through references), per type. */
  context: Record<string, number>;
  /** Each distinct record warning, with how many records carry it. */
  warnings: Record<string, number>;
};

/**
 * What one normalization produced, for an import to store beside its run. Counted before any merge across sources,
 * so for one source records + skipped = the resources of mapped types it sent.
 */
export function summarizeNormalization(result: NormalizationCounts): NormalizationSummary {
  const records = Object.fromEntries(CATEGORIES.map((category) => [category, 0])) as Record<Category, number>;
  for (const fact of result.facts) records[fact.category] += 1;

  const skippedByType: Record<string, Record<string, number>> = {};
  for (const [type, skips] of groupCounts(result.skipped.map((skip) => [skip.resourceType, skip.reason]))) {
    skippedByType[type] = countsOf(skips);
  }
  return {
    records,
    skipped: countsOf(result.skipped.map((skip) => skip.reason)),
    recordsWithWarnings: result.facts.filter((fact) => (fact.record.warnings?.length ?? 0) > 0).length,
    skippedByType,
    context: countsOf((result.context ?? []).map((item) => item.resourceType)),
    warnings: countsOf(result.facts.flatMap((fact) => fact.record.warnings ?? [])),
  };
}

/** Counts per distinct value, keys in code-unit order so that a stored summary compares stably. */
function countsOf(values: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return Object.fromEntries([...counts.keys()].sort(byCodeUnit).map((key) => [key, counts.get(key)!]));
}

function groupCounts(pairs: [string, string][]): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return [...groups.entries()].sort(([a], [b]) => byCodeUnit(a, b));
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
