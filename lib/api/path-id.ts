import { z } from "zod";
import { addApiIssue, type ErrorCode } from "@/lib/http";
import { idPattern, type IdPrefix } from "@/lib/ids";

/**
 * A path parameter that is one of our identifiers. Anything not shaped like one (a NUL byte, another prefix, an
 * over-long string) names nothing, so the parsing step answers `notFound` before a handler queries anything with
 * it; the pattern also documents the parameter.
 */
export function pathId(prefix: IdPrefix, what: { description: string; example: string; notFound?: ErrorCode; resource: string }) {
  const pattern = idPattern(prefix);
  return z
    .string()
    .superRefine((value, ctx) => {
      if (!pattern.test(value)) addApiIssue(ctx, what.notFound ?? "not_found", `No ${what.resource} with that id: ${prefix} ids are ${prefix} and 24 letters and digits.`);
    })
    .describe(what.description)
    .meta({ example: what.example, pattern: pattern.source });
}
