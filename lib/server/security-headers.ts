import { randomBytes } from "node:crypto";

/** Two years, the preload list's minimum; sent only over https, where browsers honour it. */
const HSTS = "max-age=63072000; includeSubDomains";

/** Headers for every response: no MIME sniffing anywhere, and HSTS once the client came over https. */
export function transportHeaders(https: boolean): Record<string, string> {
  return { "X-Content-Type-Options": "nosniff", ...(https ? { "Strict-Transport-Security": HSTS } : {}) };
}

/** A fresh, unguessable script nonce per document (Next.js accepts base64). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * Pages whose client code adds inline styles at run time without a nonce: the developer dashboard's pages (and their
 * sign-in), whose UI primitives (dialogs, toasts, charts) do, and the API reference at /docs itself (not its guides),
 * where Scalar injects its theme and its code editor's styles as <style> elements it cannot give a nonce.
 */
const INLINE_STYLE_PAGES = /^\/((dashboard|sign-in|sign-up|invitations)(\/|$)|docs\/?$)/;

/**
 * The pages' policy. Scripts run only when they carry this response's nonce or were loaded by one that does
 * ('strict-dynamic': Next's runtime loads its chunks); styles are Tailwind's stylesheet from 'self' plus any inline
 * style Next marks with the nonce. On those pages inline styles are allowed instead (a nonce would make the
 * browser ignore 'unsafe-inline'): style injection cannot run script, and scripts stay nonce-only everywhere.
 * Nothing may frame the pages, plugins are off, and forms post only here.
 *
 * Under `npm run dev` (NODE_ENV=development) two things are added for Next.js's development runtime, never in
 * production: 'unsafe-eval' for scripts (React rebuilds server component stacks with eval in development) and inline
 * styles on every page (the error overlay and hot reload insert <style> elements without the nonce).
 */
export function contentSecurityPolicy(nonce: string, https: boolean, pathname = "/", development = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    development || INLINE_STYLE_PAGES.test(pathname) ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Over plain http (local development) upgrading would point every asset at a port with no TLS.
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Headers for pages and their assets: the policy above, no framing (for browsers without CSP 2), less referrer. */
export function documentHeaders(policy: string): Record<string, string> {
  return {
    "Content-Security-Policy": policy,
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
  };
}
