import { cookies, headers } from "next/headers";
import { LOCALE_COOKIE, negotiateLocale, type Locale } from "@/lib/i18n";

/** The locale of the patient page being rendered: the switcher's cookie, then Accept-Language. */
export async function pageLocale(): Promise<Locale> {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return negotiateLocale({ chosen: cookieStore.get(LOCALE_COOKIE)?.value, acceptLanguage: headerList.get("accept-language") });
}
