import { parseCookie } from "cookie";
import Negotiator from "negotiator";

/** The languages of the patient-facing pages (Connect, the synthetic health systems, the receipt). */
export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Set by the proxy on a patient page's request: the locale its root layout declares in `<html lang>`. */
export const PAGE_LOCALE_HEADER = "x-chartkey-page-locale";

/** The `<html lang>` of a page: the patient page's locale the proxy negotiated, English for every other page. */
export function documentLanguage(pageLocaleHeader: string | null): Locale {
  return isLocale(pageLocaleHeader) ? pageLocaleHeader : DEFAULT_LOCALE;
}

/** The patient's explicit choice from the language switcher; it outranks the browser's Accept-Language. */
export const LOCALE_COOKIE = "chartkey_locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language to answer in: an explicit choice first (the switcher's cookie, or OpenID's `ui_locales` on a health
 * system's sign-in page), then the best match of Accept-Language (`es-MX` is Spanish), then English.
 */
export function negotiateLocale(input: { chosen?: string | null; uiLocales?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(input.chosen)) return input.chosen;
  for (const tag of (input.uiLocales ?? "").split(" ")) {
    const language = tag.split("-")[0]?.toLowerCase();
    if (isLocale(language)) return language;
  }
  if (!input.acceptLanguage) return DEFAULT_LOCALE;
  const [best] = new Negotiator({ headers: { "accept-language": input.acceptLanguage } }).languages([...LOCALES]);
  return isLocale(best) ? best : DEFAULT_LOCALE;
}

/** The locale of a request a route handler answers: the switcher's cookie, then `ui_locales`, then Accept-Language. */
export function requestLocale(request: Request): Locale {
  return negotiateLocale({
    chosen: parseCookie(request.headers.get("cookie") ?? "")[LOCALE_COOKIE],
    uiLocales: new URL(request.url).searchParams.get("ui_locales"),
    acceptLanguage: request.headers.get("accept-language"),
  });
}
