import type { KeyAuth } from "@/lib/auth";
import { assertCategoryReadable, authorizeSubjectRead } from "@/lib/consent";
import { ApiError } from "@/lib/http";
import { feedCursor, readChanges } from "@/lib/records";
import { singleCategory } from "./single-category";

/** GET /users/{subject}/records/{category}/changes: the feed after a change cursor (a page's changeCursor or a nextCursor). */
export async function listRecordChanges(key: KeyAuth, subjectId: string, categoryParam: string, query: { limit: number; cursor?: string }) {
  const category = singleCategory(categoryParam);
  const authorization = await authorizeSubjectRead(key, subjectId);
  assertCategoryReadable(authorization, category);
  if (!query.cursor) {
    throw new ApiError("invalid_cursor", "Pass the changeCursor of a category page (or a later nextCursor) as cursor.");
  }
  const { scope } = authorization;
  const after = feedCursor.decode(scope, category, query.cursor);
  if (!Number.isSafeInteger(after.q) || after.q < 0) throw new ApiError("invalid_cursor", "The cursor is not valid.");
  const page = await readChanges(subjectId, category, after.q, query.limit);
  return { data: page.changes, hasMore: page.hasMore, nextCursor: feedCursor.encode(scope, category, { q: page.lastSequence }) };
}
