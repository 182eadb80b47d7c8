import type { z } from "zod";
import type { ErrorCode } from "./error-codes";

/** A custom zod issue that maps to a specific API error code (client-safe: schemas anywhere may use it). */
export function addApiIssue(ctx: z.RefinementCtx, apiCode: ErrorCode, message: string): void {
  ctx.addIssue({ code: "custom", message, params: { apiCode } });
}

/** Client-safe too: schemas anywhere may refuse text PostgreSQL cannot store. */
export { unstorableCharacter } from "./storable-text";
