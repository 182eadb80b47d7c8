import { ApiError } from "@/lib/http";
import { CATEGORIES, type Category, isCategory } from "@/lib/records";

/** Validates category names (400 `invalid_categories` for any unknown one); returns them deduplicated, in category order. */
export function parseCategoryList(names: readonly string[]): Category[] {
  const unknown = names.filter((name) => !isCategory(name));
  if (unknown.length > 0) {
    throw new ApiError("invalid_categories", `Unknown categories: ${unknown.join(", ")}. Categories are ${CATEGORIES.join(", ")}.`);
  }
  if (names.length === 0) throw new ApiError("invalid_categories", "Name at least one category.");
  return CATEGORIES.filter((category) => names.includes(category));
}

/** The `categories` query parameter (comma-separated); omitted means everything the consent grants. */
export function requestedCategories(raw: string | null, grant: readonly Category[]): Category[] {
  if (raw === null) return [...grant];
  return parseCategoryList(raw.split(",").map((name) => name.trim()).filter((name) => name !== ""));
}
