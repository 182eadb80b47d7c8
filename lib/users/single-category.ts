import { ApiError } from "@/lib/http";
import { parseCategoryList, splitCategoryParam, type Category } from "@/lib/records";

/** A single-category endpoint's path segment: one known category, else 400 `invalid_categories`. */
export function singleCategory(raw: string): Category {
  const names = splitCategoryParam(raw);
  if (names.length > 1) throw new ApiError("invalid_categories", "This endpoint reads one category; name exactly one.");
  const [category] = parseCategoryList(names);
  if (!category) throw new ApiError("invalid_categories", "Name one category.");
  return category;
}
