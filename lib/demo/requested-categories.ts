import { parseCategoryList, splitCategoryParam, type Category } from "@/lib/records";

/** The `categories` query parameter (comma-separated); omitted means everything the consent grants. */
export function requestedCategories(raw: string | null, grant: readonly Category[]): Category[] {
  if (raw === null) return [...grant];
  return parseCategoryList(splitCategoryParam(raw));
}
