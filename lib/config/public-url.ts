/**
 * The origin patients and developers reach this deployment at, for links the API hands out (Connect URLs, receipt
 * links). `CHARTKEY_PUBLIC_URL` when set (behind a proxy the request's own origin may be an internal one), else the
 * origin the request came in on.
 */
export function publicOrigin(requestOrigin: string): string {
  const configured = process.env.CHARTKEY_PUBLIC_URL;
  return configured ? new URL(configured).origin : requestOrigin;
}
