import type { KeyAuth } from "@/lib/auth";
import { assertCategoryReadable, authorizeSubjectRead, readScope } from "@/lib/consent";
import { feedCursor, pageCursor, positionTime, type Category, type PagePosition } from "@/lib/records";
import { readConsentedSections } from "./consented-sections";
import { SCHEMA_VERSION } from "./schema-version";
import { singleCategory } from "./single-category";

/**
 * GET /users/{subject}/records/{category}: one page and the change cursor, read with the consent that allows them in
 * one statement (one snapshot), so the page plus the changes after its cursor always equal any later state. The
 * records are the stored JSON, spliced into the answer as text (`data`, a JsonText).
 */
export async function listCategoryRecords(key: KeyAuth, subjectId: string, categoryParam: string, query: { limit: number; cursor?: string }) {
  const category: Category = singleCategory(categoryParam);
  const scope = readScope(key, subjectId);
  const after = query.cursor ? await resumeAt(key, subjectId, category, query.cursor) : null;
  const { authorization, sections } = await readConsentedSections(key, subjectId, [category], query.limit, { after });
  assertCategoryReadable(authorization, category);
  const page = sections.get(category);
  if (!page) throw new Error(`the read of ${category} answered no section`);
  return {
    data: page.records,
    hasMore: page.next !== null,
    nextCursor: page.next ? pageCursor.encode(scope, category, page.next) : null,
    meta: { changeCursor: feedCursor.encode(scope, category, { q: page.lastSequence }), schemaVersion: SCHEMA_VERSION },
  };
}

/**
 * Where a later page starts. A cursor that does not decode is 400 `invalid_cursor` only for a read the key may
 * make: a subject or category it may not read is refused as such (404, 403) whatever the cursor says.
 */
async function resumeAt(key: KeyAuth, subjectId: string, category: Category, cursor: string): Promise<{ position: PagePosition; at: Date }> {
  try {
    const position = pageCursor.decode(readScope(key, subjectId), category, cursor);
    return { position, at: positionTime(position) };
  } catch (error) {
    assertCategoryReadable(await authorizeSubjectRead(key, subjectId), category);
    throw error;
  }
}
