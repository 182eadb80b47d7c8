import type pg from "pg";

/**
 * Reserves, for each (subject, category) feed given, `count` consecutive sequence numbers, and returns the first of
 * each by category: one statement for every category. The counter rows stay locked until the writing transaction
 * ends, so sequences are handed out in commit order and a reader that has passed a number never misses a change
 * committed later under it. Callers pass categories in one fixed order, so two writers lock them alike.
 */
export async function reserveSequences(tx: pg.ClientBase, subjectId: string, reservations: readonly { category: string; count: number }[]): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ category: string; lastSequence: number }>(
    `INSERT INTO "ChangeCounter" ("subjectId", "category", "lastSequence")
     SELECT $1, r."category", r."count"
     FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS r("category", "count", "position")
     ORDER BY r."position"
     ON CONFLICT ("subjectId", "category") DO UPDATE SET "lastSequence" = "ChangeCounter"."lastSequence" + EXCLUDED."lastSequence"
     RETURNING "category", "lastSequence"`,
    [subjectId, reservations.map((reservation) => reservation.category), reservations.map((reservation) => reservation.count)],
  );
  const counts = new Map(reservations.map((reservation) => [reservation.category, reservation.count]));
  if (rows.length !== counts.size) throw new Error("the change counter upsert did not return a row per category");
  return new Map(rows.map((row) => [row.category, row.lastSequence - counts.get(row.category)! + 1]));
}
