import { z } from "zod";
import { ApiError } from "./api-error";
import type { ErrorCode } from "./error-codes";

/**
 * A zod issue may name the API error code it stands for (`params.apiCode`), so a schema such as `limit` can
 * carry `invalid_pagination` while ordinary field errors stay `invalid_request`.
 */
export function apiErrorFromZod(error: z.ZodError, where: "body" | "query" | "path"): ApiError {
  const issue = error.issues[0];
  if (!issue) return new ApiError("invalid_request", `The ${where} is invalid.`);
  const apiCode = issue.code === "custom" ? (issue.params?.apiCode as ErrorCode | undefined) : undefined;
  if (apiCode) return new ApiError(apiCode, issue.message);
  return new ApiError("invalid_request", describeIssue(issue, where));
}

function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const field = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return `Unknown ${where} field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}.`;
  }
  if (issue.code === "invalid_type" && issue.input === undefined) return `${field} is required.`;
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** Parses `input` with `schema`, or throws the API error the first issue stands for. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: "body" | "query" | "path"): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw apiErrorFromZod(result.error, where);
  return result.data;
}

export { addApiIssue } from "./schemas";
