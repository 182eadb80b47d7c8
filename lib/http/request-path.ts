/** The request's path without origin or query (a query may carry cursors), sliced rather than parsed: it runs on every keyed request. */
export function requestPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const end = url.indexOf("?", start);
  return url.slice(start, end === -1 ? undefined : end);
}
