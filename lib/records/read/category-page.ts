import { Prisma, type Tx } from "@/lib/db";
import { ApiError } from "@/lib/http";
import type { Category } from "../categories";
import type { NormalizedRecord } from "../schemas";
import type { PagePosition } from "./positions";

export type RecordPage = { records: NormalizedRecord[]; next: PagePosition | null };

/**
 * One page of a category's live records, newest clinical time first, then id, resuming after `after` (keyset on the
 * index that matches this order, so page N costs what page 1 costs).
 */
export async function readCategoryPage(tx: Tx, subjectId: string, category: Category, limit: number, after: PagePosition | null): Promise<RecordPage> {
  const afterAt = after ? positionTime(after) : null;
  // Raw SQL: this runs on every page and snapshot section, and the statement is fixed (an ORM query would be
  // compiled again on each call).
  const rows = await tx.$queryRaw<{ id: string; data: NormalizedRecord; sortAt: Date }[]>(Prisma.sql`
    SELECT "id", "data", "sortAt" FROM "Record"
    WHERE "subjectId" = ${subjectId} AND "category" = ${category} AND "deletedAt" IS NULL
    ${after && afterAt ? Prisma.sql`AND ("sortAt" < ${afterAt} OR ("sortAt" = ${afterAt} AND "id" < ${after.i}))` : Prisma.empty}
    ORDER BY "sortAt" DESC, "id" DESC
    LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    records: page.map((row) => row.data),
    next: rows.length > limit && last ? { s: last.sortAt.toISOString(), i: last.id } : null,
  };
}

/** The last sequence of a category's change feed: reading the feed after it returns only later changes. */
export async function lastSequence(tx: Tx, subjectId: string, category: Category): Promise<number> {
  const [row] = await tx.$queryRaw<{ lastSequence: number }[]>(
    Prisma.sql`SELECT "lastSequence" FROM "ChangeCounter" WHERE "subjectId" = ${subjectId} AND "category" = ${category}`,
  );
  return row?.lastSequence ?? 0;
}

function positionTime(position: PagePosition): Date {
  const time = new Date(position.s);
  // A signed cursor always carries a valid time; this guards against a signing-key leak, not a client typo.
  if (Number.isNaN(time.getTime()) || typeof position.i !== "string") throw new ApiError("invalid_cursor", "The cursor is not valid.");
  return time;
}
