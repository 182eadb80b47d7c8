import { ApiError, HEADER, type RouteResult } from "@/lib/http";

/** A session version as a strong entity tag: `"3"`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * If-Match (RFC 9110, strong comparison): absent, `*`, or a list holding the session's current ETag lets a change
 * go ahead; anything else means the caller saw an older session, 409 `session_changed`.
 */
export function requireIfMatch(ifMatch: string | null | undefined, version: number): void {
  if (ifMatch === null || ifMatch === undefined || ifMatch.trim() === "") return;
  const tags = ifMatch.split(",").map((tag) => tag.trim());
  if (tags.includes("*") || tags.includes(etagOf(version))) return;
  throw sessionChanged();
}

export function sessionChanged(): ApiError {
  return new ApiError("session_changed", "The session changed since you read it (another request changed it first); read it again and retry.");
}

/** A JSON answer carrying the session version's ETag. */
export function withEtag(body: unknown, version: number, status = 200): RouteResult {
  return { status, body, headers: { [HEADER.etag]: etagOf(version) } };
}
