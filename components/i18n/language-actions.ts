"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n";

const ONE_YEAR_SECONDS = 365 * 86_400;
/** Only the patient pages switch language; anything else (another origin, `//host`) goes home instead. */
const PATIENT_PATH = /^\/(connect|consent)\/[A-Za-z0-9_-]+(\/[a-z-]+)?$/;

/** The switcher: keeps the patient's language in a cookie and reloads the page they were on. */
export async function chooseLanguageAction(formData: FormData): Promise<void> {
  const locale = formData.get("locale");
  const returnTo = String(formData.get("returnTo") ?? "");
  if (isLocale(locale)) {
    (await cookies()).set(LOCALE_COOKIE, locale, { httpOnly: true, sameSite: "lax", path: "/", maxAge: ONE_YEAR_SECONDS });
  }
  redirect(PATIENT_PATH.test(returnTo) ? returnTo : "/");
}
