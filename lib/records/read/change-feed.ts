import type { Tx } from "@/lib/db";
import type { Category } from "../categories";
import type { NormalizedRecord } from "../schemas";

export type ChangeItem = { sequence: number; changeType: "upsert" | "delete"; recordId: string; record: NormalizedRecord | null };
export type ChangePage = { changes: ChangeItem[]; lastSequence: number; hasMore: boolean };

/**
 * Changes after `afterSequence`, in sequence order. An upsert carries the record as it is now, or null if the record
 * was deleted since (its delete comes later in the feed); a delete always carries null.
 */
export async function readChanges(tx: Tx, subjectId: string, category: Category, afterSequence: number, limit: number): Promise<ChangePage> {
  const rows = await tx.recordChange.findMany({
    where: { subjectId, category, sequence: { gt: afterSequence } },
    orderBy: { sequence: "asc" },
    take: limit + 1,
    select: { sequence: true, changeType: true, recordId: true },
  });
  const page = rows.slice(0, limit);
  const upserted = page.filter((change) => change.changeType === "upsert").map((change) => change.recordId);
  const records = await tx.record.findMany({ where: { id: { in: [...new Set(upserted)] }, deletedAt: null }, select: { id: true, data: true } });
  const current = new Map(records.map((record) => [record.id, record.data as unknown as NormalizedRecord]));
  return {
    changes: page.map((change) => ({
      sequence: change.sequence,
      changeType: change.changeType,
      recordId: change.recordId,
      record: change.changeType === "upsert" ? (current.get(change.recordId) ?? null) : null,
    })),
    lastSequence: page.at(-1)?.sequence ?? afterSequence,
    hasMore: rows.length > limit,
  };
}
