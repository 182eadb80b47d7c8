// What a crash test checks a platform against after its restart, over the public API only (so both the vitest
// fault tests and the browser tests' `npm start` crash test use it): the change feed replayed from a saved cursor,
// the category read afresh, and snapshots with their per-import ids and times taken out.

/** GETs an /api/v1 path (`/users/...`) and answers its JSON body, failing on any answer that is not a success. */
export type ApiGet = (path: string) => Promise<unknown>;

type Change = { sequence: number; changeType: "upsert" | "delete"; recordId: string; record: { recordId: string } | null };

/**
 * Replays a category's change feed from `cursor` to its end as a client applies it to `start`, the records it read
 * with that cursor (upserts keyed by record id, deletes removing), and returns the records it ends with, by id.
 */
export async function replayChangeFeed(get: ApiGet, subject: string, category: string, cursor: string, start: ReadonlyMap<string, unknown> = new Map()): Promise<Map<string, unknown>> {
  const records = new Map(start);
  for (;;) {
    const page = (await get(`/users/${subject}/records/${category}/changes?limit=100&cursor=${encodeURIComponent(cursor)}`)) as { data: Change[]; hasMore: boolean; nextCursor: string };
    for (const change of page.data) {
      if (change.changeType === "delete") records.delete(change.recordId);
      else if (change.record) records.set(change.recordId, change.record);
    }
    cursor = page.nextCursor;
    if (!page.hasMore) return records;
  }
}

/** A category read afresh, every page, by record id. */
export async function readWholeCategory(get: ApiGet, subject: string, category: string): Promise<Map<string, unknown>> {
  const records = new Map<string, unknown>();
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = (await get(`/users/${subject}/records/${category}?limit=100${query}`)) as { data: { recordId: string }[]; nextCursor: string | null };
    for (const record of page.data) records.set(record.recordId, record);
    cursor = page.nextCursor;
  } while (cursor);
  return records;
}

/** A snapshot with what names this subject and this import (ids, times) taken out: what a clean import must equal. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !/(^id$|Id$|Ids$|^subject$|At$|^timestamp$|Cursor$|^meta$)/.test(key))
        .map(([key, inner]) => [key, canonical(inner)]),
    );
  }
  return value;
}
