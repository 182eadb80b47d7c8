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
 * The one spelling of a path, decided before choosing which API (if any) a request is for. Escapes of unreserved
 * characters are decoded (RFC 3986 §6.2.2.2: `/api/%76%31/app` is `/api/v1/app`); backslashes are slashes and dot
 * segments are resolved as URL parsing does it in browsers and in Next.js's router (`/api/v1\app`,
 * `/api/v1/../../dashboard`); repeated slashes collapse and a trailing slash is dropped, so `/demo/v1/` and
 * `/api/v1//app` name the same operation as `/demo/v1` and `/api/v1/app` instead of meeting Next.js's 308. Escapes
 * of other characters (`%2F`, `%00`) stay as written.
 */
export function canonicalPath(pathname: string): string {
  const collapsed = resolveSegments(decodeUnreserved(pathname)).replace(/\/{2,}/g, "/");
  return collapsed.length > 1 && collapsed.endsWith("/") ? collapsed.slice(0, -1) : collapsed;
}

function decodeUnreserved(pathname: string): string {
  return pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9._~-]$/.test(character) ? character : escape;
  });
}

/** Backslashes as slashes and `.` / `..` segments resolved, by the WHATWG URL parser itself. */
function resolveSegments(pathname: string): string {
  if (!/^[/\\]/.test(pathname)) return pathname; // `OPTIONS *` and other targets that are not a path
  try {
    return new URL(`http://host${pathname}`).pathname;
  } catch {
    return pathname;
  }
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
