import type { OperationOutcome, OperationOutcomeIssue } from "fhir/r4";
import type { ApiError } from "@/lib/http";
import { FHIR_JSON } from "./content-type";

/** The FHIR issue type closest to each HTTP status our errors use. */
function issueCode(status: number): OperationOutcomeIssue["code"] {
  if (status === 401) return "login";
  if (status === 403) return "forbidden";
  if (status === 404 || status === 410) return "not-found";
  if (status === 409) return "conflict";
  if (status === 413) return "too-costly";
  if (status === 429) return "throttled";
  if (status >= 500) return "exception";
  return "invalid";
}

/** An error as FHIR clients expect it: an OperationOutcome naming our error code and the request id. */
export function operationOutcome(error: ApiError, requestId: string): OperationOutcome {
  return {
    resourceType: "OperationOutcome",
    // A FHIR id allows no underscore: the request id `req_X` is `req-X` here (Request-Id keeps its own form).
    id: requestId.replaceAll("_", "-"),
    issue: [
      {
        severity: error.status >= 500 ? "fatal" : "error",
        code: issueCode(error.status),
        details: { coding: [{ system: "urn:chartkey:error-code", code: error.code }], text: error.code },
        diagnostics: error.message,
      },
    ],
  };
}

export function operationOutcomeResponse(error: ApiError, requestId: string, headers: Record<string, string> = {}): Response {
  return Response.json(operationOutcome(error, requestId), {
    status: error.status,
    headers: { ...headers, ...error.headers, "Content-Type": FHIR_JSON, "Cache-Control": "no-store" },
  });
}
