import pg from "pg";
import { pgPool } from "@/lib/db";
import { ApiError, JsonText } from "@/lib/http";
import type { Category } from "../categories";
import type { PagePosition } from "./positions";
import { sectionPageAfter, sectionPages, type SectionRow } from "./read-sql";

/**
 * Records as stored: the JSON text of an array of the NormalizedRecords the API serves, in page order, as the pieces
 * PostgreSQL sent (each record's text), never joined into one string (lib/http/json-text.ts says why).
 */
export type RecordPage = { records: JsonText; next: PagePosition | null };
/** A page of a category and the last sequence of its change feed, read at the same snapshot. */
export type SectionPage = RecordPage & { lastSequence: number };

/**
 * One page of a category's live records, newest clinical time first, then id, resuming after `after` (keyset on the
 * index that matches this order, so page N costs what page 1 costs), with the category's last change sequence read
 * in the same statement: reading the feed after it returns exactly the changes made since this page.
 */
export async function readCategoryPage(subjectId: string, category: Category, limit: number, after: PagePosition | null): Promise<SectionPage> {
  const afterAt = after ? positionTime(after) : null;
  const query = after && afterAt ? sectionPageAfter(subjectId, category, limit + 1, { at: afterAt.toISOString(), id: after.i }) : sectionPages(subjectId, [category], limit + 1);
  const { rows } = await pgPool().query<SectionRow>(query);
  return toSection(rows, limit);
}

/** The sections of a sections statement's rows (fetched with `limit + 1` records per category), by category. */
export function sectionsOf<C extends string>(rows: readonly SectionRow[], categories: readonly C[], limit: number): Map<C, SectionPage> {
  const rowsOf = new Map<string, SectionRow[]>(categories.map((category) => [category, []]));
  for (const row of rows) rowsOf.get(row.category)?.push(row);
  return new Map(categories.map((category) => [category, toSection(rowsOf.get(category) ?? [], limit)]));
}

const parseTime = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

/** A section from its rows (page order, `limit + 1` at most): the records spliced into the text of one JSON array. */
function toSection(rows: readonly SectionRow[], limit: number): SectionPage {
  const records = rows.filter((row) => row.id !== null);
  const page = records.slice(0, limit);
  const last = page.at(-1);
  return {
    records: new JsonText(arrayParts(page.map((row) => row.data as string))),
    next: records.length > limit && last ? { s: parseTime(last.sortAt as string).toISOString(), i: last.id as string } : null,
    lastSequence: Number(rows[0]?.lastSequence ?? 0),
  };
}

/** The pieces of a JSON array of `items` (each already JSON text): brackets and commas between them. */
function arrayParts(items: readonly string[]): string[] {
  const parts = ["["];
  items.forEach((item, index) => {
    if (index > 0) parts.push(",");
    parts.push(item);
  });
  parts.push("]");
  return parts;
}

/** The last sequence of a category's change feed: reading the feed after it returns only later changes. */
export async function lastSequence(subjectId: string, category: Category): Promise<number> {
  return (await readCategoryPage(subjectId, category, 0, null)).lastSequence;
}

/** The time of a decoded page position: 400 `invalid_cursor` when it holds none. */
export function positionTime(position: PagePosition): Date {
  const time = new Date(position.s);
  // A signed cursor always carries a valid time; this guards against a signing-key leak, not a client typo.
  if (Number.isNaN(time.getTime()) || typeof position.i !== "string") throw new ApiError("invalid_cursor", "The cursor is not valid.");
  return time;
}
