import { CATEGORIES } from "../categories";
import type { SourceRef } from "../schemas";
import type { NormalizedFact } from "./types";

/** Category order of CATEGORIES, then recordId (compared by code unit, so the order never depends on a locale). */
export function compareFacts(left: NormalizedFact, right: NormalizedFact): number {
  const byCategory = CATEGORIES.indexOf(left.category) - CATEGORIES.indexOf(right.category);
  if (byCategory !== 0) return byCategory;
  const [a, b] = [left.record.recordId, right.record.recordId];
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameSourceRef(left: SourceRef, right: SourceRef): boolean {
  return (
    left.sourceId === right.sourceId &&
    left.resourceType === right.resourceType &&
    left.resourceId === right.resourceId
  );
}

/**
 * Merges per-source results: facts with equal (category, factKey) become one record whose `sources` lists every
 * contributing source resource, in the order the sources were given. The first source's fields win, so callers
 * decide precedence by the order of `perSource`. Inputs are not modified.
 */
export function mergeFacts(perSource: NormalizedFact[][]): NormalizedFact[] {
  const merged = new Map<string, NormalizedFact>();
  for (const facts of perSource) {
    for (const fact of facts) {
      const key = JSON.stringify([fact.category, fact.factKey]);
      const existing = merged.get(key);
      if (!existing) {
        merged.set(key, { ...fact, record: { ...fact.record, sources: [...fact.record.sources] } });
        continue;
      }
      for (const source of fact.record.sources) {
        if (!existing.record.sources.some((known) => sameSourceRef(known, source))) existing.record.sources.push(source);
      }
    }
  }
  return [...merged.values()].sort(compareFacts);
}
