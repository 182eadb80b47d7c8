import type { KeyAuth } from "@/lib/auth";
import { assertCategoryReadable, authorizeSubjectRead } from "@/lib/consent";
import { feedCursor, pageCursor, readCategoryPage, type Category } from "@/lib/records";
import { SCHEMA_VERSION } from "./schema-version";
import { singleCategory } from "./single-category";

/**
 * GET /users/{subject}/records/{category}: one page and the change cursor, read in one statement (one snapshot),
 * so the page plus the changes after its cursor always equal any later state.
 */
export async function readCategoryRecords(key: KeyAuth, subjectId: string, categoryParam: string, query: { limit: number; cursor?: string }) {
  const category: Category = singleCategory(categoryParam);
  const authorization = await authorizeSubjectRead(key, subjectId);
  assertCategoryReadable(authorization, category);
  const { scope } = authorization;
  const after = query.cursor ? pageCursor.decode(scope, category, query.cursor) : null;
  const page = await readCategoryPage(subjectId, category, query.limit, after);
  return {
    data: page.records,
    hasMore: page.next !== null,
    nextCursor: page.next ? pageCursor.encode(scope, category, page.next) : null,
    meta: { changeCursor: feedCursor.encode(scope, category, { q: page.lastSequence }), schemaVersion: SCHEMA_VERSION },
  };
}
