import { escapeHtml, styleNonce } from "@/lib/http";
import type { Locale } from "@/lib/i18n";

/**
 * A small self-contained HTML page for answers a route handler gives a patient (an expired or unknown link), where
 * a React page cannot set the HTTP status. Its one style block carries the request's CSP nonce.
 */
export function linkPage(request: Request, page: { status: number; title: string; message: string; locale: Locale }): Response {
  const nonce = styleNonce(request);
  const html = `<!doctype html>
<html lang="${page.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Chartkey</title>
<style nonce="${escapeHtml(nonce)}">
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:32rem;margin:0 auto;padding:4rem 1.5rem}h1{font-size:1.6rem;margin:0 0 1rem}p{line-height:1.6;color:#334155}
.brand{font-size:.8rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#0f766e}
</style></head>
<body><main><p class="brand">Chartkey</p><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p></main></body></html>`;
  return new Response(html, { status: page.status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Language": page.locale, Vary: "Accept-Language, Cookie" } });
}
