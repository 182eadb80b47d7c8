import { z } from "zod";
import { addApiIssue } from "./zod-issues";
import { ApiError } from "./api-error";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

const WHOLE_NUMBER = /^\d+$/;

/** `limit`: a whole number 1 to 100, default 50 (docs/contract.md, Limits). */
export function parseLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_LIMIT;
  const value = WHOLE_NUMBER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new ApiError("invalid_pagination", `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  }
  return value;
}

/** Legacy `offset`: a whole number >= 0, default 0. */
export function parseOffset(raw: string | null): number {
  if (raw === null) return 0;
  const value = WHOLE_NUMBER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) throw new ApiError("invalid_pagination", "offset must be a whole number >= 0.");
  return value;
}

export type ListEnvelope<T> = { data: T[]; hasMore: boolean; nextCursor: string | null };

function paginationParam(parse: (raw: string | null) => number) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parse(raw ?? null);
      } catch (error) {
        addApiIssue(ctx, "invalid_pagination", (error as Error).message);
        return z.NEVER;
      }
    });
}

/** `limit` as a query field: 1 to 100, default 50; anything else is 400 `invalid_pagination`. */
export const limitParam = paginationParam(parseLimit)
  .describe(`Page size, a whole number from 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`)
  .meta({ example: "50" });

/** Legacy `offset` as a query field. */
export const offsetParam = paginationParam(parseOffset).describe("Legacy: records to skip, a whole number >= 0. Prefer cursor.").meta({ example: "0" });

/** `cursor` as a query field: a nextCursor passed back unchanged. */
export const cursorParam = z
  .string()
  .min(1)
  .optional()
  .describe("A nextCursor from the previous page of this endpoint, passed back unchanged.");
