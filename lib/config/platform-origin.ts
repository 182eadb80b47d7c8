/**
 * The origin this deployment is reached at, for URLs that must not depend on the request that happens to ask:
 * the synthetic health systems' issuer, FHIR base and OAuth endpoints (stored in `Provider` rows and checked as a
 * token's audience) and the redirect URIs the platform registers with them. `CHARTKEY_PUBLIC_URL` when set (behind
 * a proxy the request's own origin may be an internal one), else the local server on `PORT`.
 */
export function platformOrigin(): string {
  const configured = process.env.CHARTKEY_PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  return `http://localhost:${process.env.PORT || "3000"}`;
}
/**
 * The origin patients and developers reach this deployment at, for links the API hands out (Connect URLs, receipt
 * links). `CHARTKEY_PUBLIC_URL` when set (behind a proxy the request's own origin may be an internal one), else the
 * origin the request came in on.
 */
export function publicOrigin(requestOrigin: string): string {
  const configured = process.env.CHARTKEY_PUBLIC_URL;
  return configured ? new URL(configured).origin : requestOrigin;
}
