import { DATA_NOTICE } from "./notice";

/** The platform's list envelope; demo lists are short and fixed, so they are never paginated. */
export function demoList<T>(data: T[]) {
  return { data, hasMore: false as const, nextCursor: null, notice: DATA_NOTICE };
}
