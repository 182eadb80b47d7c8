import { escapeHtml, styleNonce } from "@/lib/http";
import type { Locale } from "@/lib/i18n";

/**
 * The page's own policy, stricter than the server's default: no script at all, only the nonce'd stylesheet. Forms
 * post here and may be redirected to the client's registered redirect URI, whose origin is allowed too (browsers
 * apply form-action to the redirect after a form submission).
 */
function contentSecurityPolicy(nonce: string, redirectOrigin: string | null): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    `form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

const STYLE = `
:root { color-scheme: light; --ink: #111827; --muted: #4b5563; --line: #d1d5db; --accent: #1d4ed8; --accent-ink: #ffffff; --wash: #f3f4f6; --danger: #991b1b; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--wash); line-height: 1.5; }
main { max-width: 34rem; margin: 0 auto; padding: 1.25rem 1rem 2rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 0.75rem; padding: 1.25rem; }
.brand { margin: 0 0 0.25rem; font-size: 0.875rem; color: var(--muted); }
h1 { margin: 0 0 0.75rem; font-size: 1.375rem; line-height: 1.25; }
p { margin: 0 0 0.75rem; }
.notice { font-size: 0.875rem; color: var(--muted); border-left: 4px solid var(--line); padding-left: 0.75rem; }
ul.scopes { margin: 0 0 1rem; padding-left: 1.25rem; }
fieldset { border: 0; margin: 0 0 1.25rem; padding: 0; }
legend { font-weight: 600; margin-bottom: 0.5rem; padding: 0; }
.patient { display: flex; gap: 0.75rem; align-items: flex-start; border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.75rem; margin-bottom: 0.5rem; cursor: pointer; }
.patient input { margin-top: 0.3rem; width: 1.125rem; height: 1.125rem; accent-color: var(--accent); }
.patient:has(input:checked) { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.patient span { display: block; }
.patient .detail { font-size: 0.875rem; color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button { font: inherit; font-weight: 600; min-height: 2.75rem; padding: 0.5rem 1.25rem; border-radius: 0.5rem; cursor: pointer; flex: 1 1 8rem; }
button.allow { background: var(--accent); color: var(--accent-ink); border: 1px solid var(--accent); }
button.deny { background: #fff; color: var(--ink); border: 1px solid var(--ink); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--danger); font-weight: 600; }
.languages { text-align: right; font-size: 0.875rem; margin-bottom: 0.5rem; }
.languages a { color: var(--accent); }
`;

/**
 * The health system's icon, inline (a white cross on the page's blue), so the browser asks for no /favicon.ico the
 * app does not serve: a data: URL the policy's img-src allows.
 */
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff"/></svg>`;
export const EHR_ICON_HREF = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;

export type HtmlPage = { title: string; body: string; locale?: Locale; status?: number; redirectOrigin?: string | null };

/** A complete, self-contained page: no external font, script or stylesheet; readable on a phone. */
export function htmlPageResponse(request: Request, page: HtmlPage): Response {
  const nonce = styleNonce(request);
  const document = `<!doctype html>
<html lang="${page.locale ?? "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" type="image/svg+xml" href="${EHR_ICON_HREF}">
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>
`;
  return new Response(document, {
    status: page.status ?? 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": contentSecurityPolicy(nonce, page.redirectOrigin ?? null),
      "Referrer-Policy": "no-referrer",
      "Content-Language": page.locale ?? "en",
      Vary: "Accept-Language",
    },
  });
}
