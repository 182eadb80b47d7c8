import { CATEGORIES } from "../categories";
import type { NormalizedFact } from "../normalize/types";
import { recordSortAt } from "./sort-time";

/** A new record's fact with the instant it orders by. */
export type OrderedFact = NormalizedFact & { sortAt: Date };

const CATEGORY_POSITION = new Map<string, number>(CATEGORIES.map((category, index) => [category, index]));

/**
 * New facts in the order a subject's records are read (category, newest first, then id, as the records index is
 * ordered), so COPY lays each category's records out on consecutive heap pages: a page of 50 records is then a few
 * 8 kB blocks rather than one block per record. A source's facts arrive in the source's order (resource type by
 * resource type, an Observation's labs and vitals interleaved), and once written a row stays where it was put; at a
 * million records most blocks a read needs are not in PostgreSQL's cache, and each one it fetches costs a read.
 */
export function inReadOrder(facts: readonly NormalizedFact[]): OrderedFact[] {
  const ordered = facts.map((fact) => ({ ...fact, sortAt: recordSortAt(fact.category, fact.record) }));
  return ordered.sort((left, right) =>
    compareInReadOrder(
      { category: left.category, sortAt: left.sortAt.getTime(), recordId: left.record.recordId },
      { category: right.category, sortAt: right.sortAt.getTime(), recordId: right.record.recordId },
    ),
  );
}

/** What read order ranks a record by: its category, the instant it sorts at (milliseconds), its id. */
export type ReadOrderRank = { readonly category: string; readonly sortAt: number; readonly recordId: string };

/** Read order (see inReadOrder): category in CATEGORIES order, then newest first, then record id descending. */
export function compareInReadOrder(left: ReadOrderRank, right: ReadOrderRank): number {
  return (
    CATEGORY_POSITION.get(left.category)! - CATEGORY_POSITION.get(right.category)! ||
    right.sortAt - left.sortAt ||
    (left.recordId < right.recordId ? 1 : left.recordId > right.recordId ? -1 : 0)
  );
}
