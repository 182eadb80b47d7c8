import { pgPool } from "@/lib/db";
import type { Category } from "../categories";
import type { NormalizedRecord } from "../schemas";
import { changesAfter, type ChangeRow } from "./read-sql";

export type ChangeItem = { sequence: number; changeType: "upsert" | "delete"; recordId: string; record: NormalizedRecord | null };
export type ChangePage = { changes: ChangeItem[]; lastSequence: number; hasMore: boolean };

/**
 * Changes after `afterSequence`, in sequence order. An upsert carries the record as it is now, or null if the record
 * was deleted since (its delete comes later in the feed); a delete always carries null. One statement, so the
 * changes and the records they carry are read at one snapshot.
 */
export async function readChanges(subjectId: string, category: Category, afterSequence: number, limit: number): Promise<ChangePage> {
  const { rows } = await pgPool().query<ChangeRow>(changesAfter(subjectId, category, afterSequence, limit + 1));
  const page = rows.slice(0, limit);
  return {
    changes: page.map((change) => ({
      sequence: change.sequence,
      changeType: change.changeType,
      recordId: change.recordId,
      record: change.changeType === "upsert" ? ((change.data as NormalizedRecord | null) ?? null) : null,
    })),
    lastSequence: page.at(-1)?.sequence ?? afterSequence,
    hasMore: rows.length > limit,
  };
}
