import { decodeCursor, encodeCursor, type CursorBinding } from "@/lib/http";
import type { Category } from "../categories";

/** Who a records cursor belongs to: the key's application and environment, and the subject. */
export type ReadScope = { applicationId: string; environment: "sandbox" | "live"; subjectId: string };

/** Where a category page resumes: after this (sortAt, id) in newest-first order. */
export type PagePosition = { s: string; i: string };
/** Where a change feed resumes: after this sequence. */
export type FeedPosition = { q: number };

function binding(endpoint: "records" | "changes", scope: ReadScope, category: Category): CursorBinding {
  return { endpoint, applicationId: scope.applicationId, environment: scope.environment, subject: scope.subjectId, category };
}

export const pageCursor = {
  encode: (scope: ReadScope, category: Category, position: PagePosition) => encodeCursor(binding("records", scope, category), position),
  decode: (scope: ReadScope, category: Category, cursor: string) => decodeCursor<PagePosition>(cursor, binding("records", scope, category)),
};

export const feedCursor = {
  encode: (scope: ReadScope, category: Category, position: FeedPosition) => encodeCursor(binding("changes", scope, category), position),
  decode: (scope: ReadScope, category: Category, cursor: string) => decodeCursor<FeedPosition>(cursor, binding("changes", scope, category)),
};
