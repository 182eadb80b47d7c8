import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { LOCALE_COOKIE, negotiateLocale, PAGE_LOCALE_HEADER } from "@/lib/i18n";
import { SIGN_IN_PATH } from "@/lib/session";

/** The patient pages, whose language is the patient's (the switcher's cookie, then Accept-Language). */
const PATIENT_PAGE = /^\/(connect|consent)\//;

/**
 * Tells the root layout the page's language, so `<html lang>` is the locale the page is written in (screen readers
 * pick their pronunciation by it); every other page is English. The same negotiation as the page's own (pageLocale).
 */
function withPageLocale(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(PAGE_LOCALE_HEADER, negotiateLocale({ chosen: request.cookies.get(LOCALE_COOKIE)?.value, acceptLanguage: request.headers.get("accept-language") }));
  return NextResponse.next({ request: { headers } });
}

/**
 * Signed-in pages: a visitor without a valid session cookie is sent to sign in and brought back afterwards. Pages
 * check the developer again on render (the cookie may name an account that no longer exists), so this is the first
 * gate, not the only one. It only reads the cookie: next-auth's own middleware wrapper re-issues the cookie on every
 * request, and a prefetch answered after a sign-out would then sign the developer back in.
 */
export default async function proxy(request: NextRequest) {
  if (PATIENT_PAGE.test(request.nextUrl.pathname)) return withPageLocale(request);
  // A server action (a POST carrying Next-Action) checks the developer itself and answers a redirect to sign in that
  // the client router follows; redirecting it here would hand the action's fetch a page it cannot read, and the
  // dashboard would fail silently.
  if (request.method === "POST" && request.headers.has("next-action")) return NextResponse.next();
  const secureCookie = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const token = await getToken({ req: request, secret: process.env.AUTH_SECRET, secureCookie });
  if (token?.sub) return NextResponse.next();
  const signIn = new URL(SIGN_IN_PATH, request.nextUrl);
  signIn.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = { matcher: ["/dashboard/:path*", "/invitations/:path*", "/connect/:path*", "/consent/:path*"] };
