import type { Category, CategoryRecordsPage, HealthRecord, RecordChangePage } from "./types.js";

/** The two reads a sync makes: the client's `listRecords` and `listRecordChanges` (the Chartkey class has both). */
export type RecordReader = {
  listRecords(subject: string, category: Category, options?: { cursor?: string; limit?: number }): Promise<CategoryRecordsPage>;
  listRecordChanges(subject: string, category: Category, options: { cursor: string; limit?: number }): Promise<RecordChangePage>;
};

export type SyncHandlers = {
  /** Store or replace the record with this id. */
  upsert: (recordId: string, record: HealthRecord) => void | Promise<void>;
  /** Delete the record with this id locally (a tombstone). */
  remove: (recordId: string) => void | Promise<void>;
  /** Persist the cursor (with the records it covers); called after every applied page. */
  saveCursor?: (cursor: string) => void | Promise<void>;
};

export type SyncResult = {
  /** Pass it back as `cursor` next time. */
  cursor: string;
  /** Whether this call read the whole category (no cursor was given). */
  fullRead: boolean;
  upserted: number;
  removed: number;
};

export async function syncCategory(
  client: RecordReader,
  subject: string,
  category: Category,
  handlers: SyncHandlers & { cursor?: string | null },
): Promise<SyncResult> {
  const result: SyncResult = { cursor: handlers.cursor ?? "", fullRead: !handlers.cursor, upserted: 0, removed: 0 };
  if (!handlers.cursor) {
    let page = await client.listRecords(subject, category);
    // The first page's changeCursor marks the state the read started from: the feed replays what changed after it.
    result.cursor = page.meta.changeCursor;
    for (;;) {
      for (const record of page.data) {
        await handlers.upsert(record.recordId, record);
        result.upserted++;
      }
      if (!page.hasMore || !page.nextCursor) break;
      page = await client.listRecords(subject, category, { cursor: page.nextCursor });
    }
    await handlers.saveCursor?.(result.cursor);
  }
  for (;;) {
    const page = await client.listRecordChanges(subject, category, { cursor: result.cursor });
    // Sequence order as served; sorted again so a handler never sees an older change after a newer one.
    for (const change of [...page.data].sort((a, b) => a.sequence - b.sequence)) {
      if (change.record === null) {
        await handlers.remove(change.recordId);
        result.removed++;
      } else {
        await handlers.upsert(change.recordId, change.record);
        result.upserted++;
      }
    }
    const moved = page.nextCursor !== result.cursor;
    result.cursor = page.nextCursor;
    if (moved) await handlers.saveCursor?.(result.cursor);
    if (!page.hasMore) return result;
  }
}
