import { DATA_NOTICE, DATA_NOTICE_HEADER } from "@/lib/demo/notice";
import type { ApiError } from "@/lib/http/api-error";
import { errorResponse } from "@/lib/http/error-response";
import { HEADER, SERVICE_VERSION } from "@/lib/http/headers";

/** The two JSON APIs the platform serves; everything else is pages and their assets. */
export type ApiFamily = "api" | "demo";

const PREFIX: Record<ApiFamily, string> = { api: "/api/v1", demo: "/demo/v1" };

/** Which API a canonical path belongs to, if any. */
export function familyOf(path: string): ApiFamily | undefined {
  return (Object.keys(PREFIX) as ApiFamily[]).find((family) => path === PREFIX[family] || path.startsWith(`${PREFIX[family]}/`));
}

/**
 * Headers every response of a family carries (SPEC.md Versioning for the API; every demo response is marked
 * fictional), whichever code answers: a route wrapper, Next.js itself (OPTIONS, its 404s) or this server.
 */
export function familyHeaders(family: ApiFamily, requestId: string): Record<string, string> {
  if (family === "api") return { [HEADER.serviceVersion]: SERVICE_VERSION, [HEADER.requestId]: requestId };
  return { [HEADER.requestId]: requestId, [DATA_NOTICE_HEADER]: DATA_NOTICE };
}

/** An error in the spec's envelope with the family's headers, for requests refused before any route runs. */
export function familyErrorResponse(family: ApiFamily, error: ApiError, requestId: string): Response {
  return errorResponse(error, requestId, familyHeaders(family, requestId));
}
