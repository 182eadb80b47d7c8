import { Prisma, type Tx } from "@/lib/db";
import type { Category } from "../categories";
import type { NormalizedRecord } from "../schemas";

export type ChangeItem = { sequence: number; changeType: "upsert" | "delete"; recordId: string; record: NormalizedRecord | null };
export type ChangePage = { changes: ChangeItem[]; lastSequence: number; hasMore: boolean };

/**
 * Changes after `afterSequence`, in sequence order. An upsert carries the record as it is now, or null if the record
 * was deleted since (its delete comes later in the feed); a delete always carries null.
 */
export async function readChanges(tx: Tx, subjectId: string, category: Category, afterSequence: number, limit: number): Promise<ChangePage> {
  // Raw SQL, as for category pages: fixed statements on the read path.
  const rows = await tx.$queryRaw<{ sequence: number; changeType: "upsert" | "delete"; recordId: string }[]>(Prisma.sql`
    SELECT "sequence", "changeType"::text AS "changeType", "recordId" FROM "RecordChange"
    WHERE "subjectId" = ${subjectId} AND "category" = ${category} AND "sequence" > ${afterSequence}
    ORDER BY "sequence" ASC
    LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const upserted = [...new Set(page.filter((change) => change.changeType === "upsert").map((change) => change.recordId))];
  const records =
    upserted.length === 0
      ? []
      : await tx.$queryRaw<{ id: string; data: NormalizedRecord }[]>(
          Prisma.sql`SELECT "id", "data" FROM "Record" WHERE "id" IN (${Prisma.join(upserted)}) AND "deletedAt" IS NULL`,
        );
  const current = new Map(records.map((record) => [record.id, record.data]));
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
