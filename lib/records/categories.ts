import { ApiError } from "@/lib/http";
import { CATEGORIES, isCategory, type Category } from "./category-names";

export * from "./category-names";
export * from "./category-resource-types";

/** Validates category names (400 `invalid_categories` for any unknown one); returns them deduplicated, in category order. */
export function parseCategoryList(names: readonly string[]): Category[] {
  const unknown = names.filter((name) => !isCategory(name));
  if (unknown.length > 0) {
    throw new ApiError("invalid_categories", `Unknown categories: ${unknown.join(", ")}. Categories are ${CATEGORIES.join(", ")}.`);
  }
  if (names.length === 0) throw new ApiError("invalid_categories", "Name at least one category.");
  return CATEGORIES.filter((category) => names.includes(category));
}

/** A comma-separated `categories` parameter, as names (validate them with parseCategoryList). */
export function splitCategoryParam(raw: string): string[] {
  return raw.split(",").map((name) => name.trim()).filter((name) => name !== "");
}
