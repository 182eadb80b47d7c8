/** A request target split into its path (still percent-encoded, as the client sent it) and its query string. */
export type RequestTarget = { pathname: string; search: string };

// Absolute-form targets (`GET http://host/path HTTP/1.1`) are legal HTTP; only their path matters here.
const SCHEME_AND_AUTHORITY = /^[a-z][a-z\d+.-]*:\/\/[^/?]*/i;

export function splitTarget(url: string): RequestTarget {
  const originForm = url.replace(SCHEME_AND_AUTHORITY, "") || "/";
  const query = originForm.indexOf("?");
  if (query === -1) return { pathname: originForm, search: "" };
  return { pathname: originForm.slice(0, query), search: originForm.slice(query) };
}

/**
 * The one spelling of a path: repeated slashes collapse and a trailing slash is dropped, so `/demo/v1/` and
 * `/api/v1//app` name the same operation as `/demo/v1` and `/api/v1/app` instead of meeting Next.js's 308.
 */
export function canonicalPath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 && collapsed.endsWith("/") ? collapsed.slice(0, -1) : collapsed;
}

/** True when the path cannot be percent-decoded (`%zz`, a lone `%`, or escapes that are not UTF-8 such as `%FF`). */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}
