import { randomBytes } from "node:crypto";

/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * The style nonce of a page a route handler writes itself: the one the platform's server put in the request's
 * Content-Security-Policy (so the page works under the server's policy), else a fresh one (the handler called
 * directly, in tests).
 */
export function styleNonce(request: Request): string {
  const policy = request.headers.get("content-security-policy") ?? "";
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1] ?? randomBytes(16).toString("base64");
}
