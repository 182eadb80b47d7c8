import type pg from "pg";

/**
 * The SQL of the records read path, as named pg query configs (each connection prepares a statement once, then
 * only binds it), run through pg directly: these run on every page, feed and snapshot request. Each read is one
 * statement, and a statement reads one snapshot of the database, so a page and its change cursor (or a feed page
 * and its records) are always consistent without a transaction around them.
 *
 * Prisma stores DateTime as timestamp(3) without time zone, in UTC: timestamps are selected `AT TIME ZONE 'UTC'`
 * (a timestamptz, which pg parses as the right instant) and compared with ISO strings cast to timestamp(3).
 *
 * A record's data reaches the answer as the text PostgreSQL sent (RAW_COLUMNS): it is stored as `json`, the canonical
 * JSON text the API serves, which PostgreSQL sends as it is (jsonb would be rebuilt as text on every read).
 */

/**
 * One row per record of each category asked, in `categories` order then page order; a category without records is
 * one row with a null id. Every column is the text PostgreSQL sent (RAW_COLUMNS): `data` is the record's stored
 * JSON, spliced into the answer as it is, and the few other values a page uses are parsed where it uses them.
 */
export type SectionRow = { category: string; position: string; lastSequence: string; id: string | null; data: string | null; sortAt: string | null };

/**
 * A query's columns as the text PostgreSQL sent, none parsed: pg would parse each record's JSON into objects that the
 * answer then serializes again, which was most of what a records page cost.
 */
export const RAW_COLUMNS: pg.CustomTypesConfig = { getTypeParser: () => (text: string) => text };

// `categories` is the SQL of the array of categories to read ($2 itself, or what of $2 a read's consent covers);
// `$1` is the subject, `$3` the number of records per category, and a later page's position (`sortAt`, `id`) is
// `$4`, `$5`. The caller orders by (position, "sortAt" DESC, id DESC).
export function sectionsSelect(categories: string, after: boolean): string {
  return `
  SELECT c.category, c.position, COALESCE(n."lastSequence", 0) AS "lastSequence", r.id, r.data, r."sortAt" AT TIME ZONE 'UTC' AS "sortAt"
  FROM unnest(${categories}) WITH ORDINALITY AS c(category, position)
  LEFT JOIN "ChangeCounter" n ON n."subjectId" = $1 AND n.category = c.category
  LEFT JOIN LATERAL (
    SELECT id, data, "sortAt" FROM "Record"
    WHERE "subjectId" = $1 AND category = c.category AND "deletedAt" IS NULL${after ? ` AND ("sortAt", id) < ($4::timestamp(3), $5::text)` : ""}
    ORDER BY "sortAt" DESC, id DESC
    LIMIT $3
  ) r ON true`;
}

/** The order of a sections statement's rows: by category as asked, then page order. */
const SECTIONS_ORDER = `
  ORDER BY c.position, r."sortAt" DESC, r.id DESC`;

/** The values of a sections statement: the subject, the categories, the page size, and a later page's position. */
export function sectionsValues(subjectId: string, categories: readonly string[], limit: number, after: { at: string; id: string } | null): unknown[] {
  return after ? [subjectId, [...categories], limit, after.at, after.id] : [subjectId, [...categories], limit];
}

/**
 * The first `limit` live records of each category, newest clinical time first, then id (keyset on the index that
 * matches this order), with each category's last change sequence, all at one snapshot.
 */
export function sectionPages(subjectId: string, categories: readonly string[], limit: number): pg.QueryConfig {
  return { name: "chartkey-record-sections", text: `${sectionsSelect("$2::text[]", false)}${SECTIONS_ORDER}`, values: sectionsValues(subjectId, categories, limit, null), types: RAW_COLUMNS };
}

/**
 * One category's records after the position (`sortAt`, `id`), with its last sequence. The position is one row
 * comparison, which PostgreSQL turns into the index scan's start key (the equivalent OR of two comparisons is only a
 * filter, read past row by row): page N costs what page 1 costs.
 */
export function sectionPageAfter(subjectId: string, category: string, limit: number, after: { at: string; id: string }): pg.QueryConfig {
  return { name: "chartkey-record-section-after", text: `${sectionsSelect("$2::text[]", true)}${SECTIONS_ORDER}`, values: sectionsValues(subjectId, [category], limit, after), types: RAW_COLUMNS };
}

export type ChangeRow = { sequence: number; changeType: "upsert" | "delete"; recordId: string; data: unknown };

/** Changes after a sequence, in sequence order, each upsert with its record's data as it is now (null once deleted). */
export function changesAfter(subjectId: string, category: string, afterSequence: number, limit: number): pg.QueryConfig {
  return {
    name: "chartkey-record-changes",
    text: `SELECT c.sequence, c."changeType"::text AS "changeType", c."recordId", r.data
           FROM "RecordChange" c
           LEFT JOIN "Record" r ON c."changeType" = 'upsert' AND r.id = c."recordId" AND r."deletedAt" IS NULL
           WHERE c."subjectId" = $1 AND c.category = $2 AND c.sequence > $3
           ORDER BY c.sequence ASC
           LIMIT $4`,
    values: [subjectId, category, afterSequence, limit],
  };
}
