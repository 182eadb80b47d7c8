import type { IncomingHttpHeaders } from "node:http";
import { ApiError, type ErrorCode } from "@/lib/http";
import { familyErrorResponse, type ApiFamily } from "./api-families";
import { hasMalformedEscape } from "./request-target";
import { isRoutableMethod, ROUTABLE_METHODS } from "./routable-methods";

/** A short plain-text answer for pages, which have no envelope. */
export function plainResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(`${text}\n`, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** What of a request the refusals read. */
export type RefusalInput = { method: string; httpVersion: string; headers: IncomingHttpHeaders };

/**
 * The answer for a request Next.js cannot route, or undefined to hand it to Next. A path that does not
 * percent-decode makes Next answer a bare 500, and a method it has no handler slot for makes it throw; the APIs
 * answer both in their own envelope (400 `invalid_request`, 404 `not_found`), pages with plain text. Two answers
 * Node would otherwise write itself, bare, are given here too: an `Expect` other than `100-continue` (417) and an
 * HTTP/1.1 request without `Host` (400).
 */
export function refusalFor(req: RefusalInput, pathname: string, family: ApiFamily | undefined, requestId: string): Response | undefined {
  const refuse = (status: number, message: string, code: ErrorCode = "invalid_request", headers: Record<string, string> = {}) =>
    family ? familyErrorResponse(family, new ApiError(code, message, { status, headers }), requestId) : plainResponse(status, message, headers);
  if (hasMalformedEscape(pathname)) return refuse(400, "The request path contains a malformed percent-escape.");
  const expectation = req.headers.expect;
  if (expectation !== undefined && expectation.toLowerCase() !== "100-continue") {
    return refuse(417, "The only expectation this server meets is Expect: 100-continue.");
  }
  if (req.httpVersion === "1.1" && req.headers.host === undefined) return refuse(400, "An HTTP/1.1 request must carry a Host header.");
  if (!isRoutableMethod(req.method)) {
    if (!family) return plainResponse(405, `${req.method} is not supported.`, { Allow: ROUTABLE_METHODS.join(", ") });
    return refuse(404, `No operation at ${req.method} ${pathname}.`, "not_found");
  }
  return undefined;
}
