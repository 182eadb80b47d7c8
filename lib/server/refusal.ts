import { ApiError } from "@/lib/http";
import { familyErrorResponse, type ApiFamily } from "./api-families";
import { hasMalformedEscape } from "./request-target";
import { isRoutableMethod, ROUTABLE_METHODS } from "./routable-methods";

function plainResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * The answer for a request Next.js cannot route, or undefined to hand it to Next. A path that does not
 * percent-decode makes Next answer a bare 500, and a method it has no handler slot for makes it throw; the APIs
 * answer both in their own envelope (400 `invalid_request`, 404 `not_found`), pages with plain text.
 */
export function refusalFor(method: string, pathname: string, family: ApiFamily | undefined, requestId: string): Response | undefined {
  if (hasMalformedEscape(pathname)) {
    const message = "The request path contains a malformed percent-escape.";
    return family ? familyErrorResponse(family, new ApiError("invalid_request", message), requestId) : plainResponse(400, message);
  }
  if (!isRoutableMethod(method)) {
    if (!family) return plainResponse(405, `${method} is not supported.`, { Allow: ROUTABLE_METHODS.join(", ") });
    return familyErrorResponse(family, new ApiError("not_found", `No operation at ${method} ${pathname}.`), requestId);
  }
  return undefined;
}
