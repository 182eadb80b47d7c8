import { z } from "zod";

/** The ten record categories (docs/contract.md, Categories), in the order responses list them. */
export const CATEGORIES = [
  "demographics",
  "conditions",
  "medications",
  "allergies",
  "immunizations",
  "labs",
  "vitals",
  "procedures",
  "documents",
  "claims",
] as const;

export type Category = (typeof CATEGORIES)[number];

export const categorySchema = z.enum(CATEGORIES);

export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
