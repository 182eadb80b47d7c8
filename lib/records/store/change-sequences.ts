import { Prisma, type Tx } from "@/lib/db";

/**
 * Reserves `count` consecutive sequence numbers of a (subject, category) feed and returns the first. The counter
 * row stays locked until the writing transaction ends, so sequences are handed out in commit order and a reader
 * that has passed a number never misses a change committed later under it.
 */
export async function reserveSequences(tx: Tx, subjectId: string, category: string, count: number): Promise<number> {
  const [row] = await tx.$queryRaw<{ lastSequence: number }[]>(Prisma.sql`
    INSERT INTO "ChangeCounter" ("subjectId", "category", "lastSequence") VALUES (${subjectId}, ${category}, ${count})
    ON CONFLICT ("subjectId", "category") DO UPDATE SET "lastSequence" = "ChangeCounter"."lastSequence" + EXCLUDED."lastSequence"
    RETURNING "lastSequence"`);
  if (!row) throw new Error("the change counter upsert returned no row");
  return row.lastSequence - count + 1;
}
