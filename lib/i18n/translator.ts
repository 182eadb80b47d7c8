import { createFormatter, createTranslator } from "use-intl/core";
import type { Locale } from "./locales";
import { messagesFor } from "./messages";

/** Translates from the locale's catalog (ICU messages: plurals, numbers), for server code and HTML strings. */
export function translatorFor(locale: Locale) {
  return createTranslator({ locale, messages: messagesFor(locale) });
}
export type Translator = ReturnType<typeof translatorFor>;

/** Dates and numbers in the locale's conventions; dates in UTC, as the receipt stores them. */
export function formatterFor(locale: Locale) {
  return createFormatter({ locale, timeZone: "UTC" });
}

/** A date as the patient reads it: "November 25, 2027" or "25 de noviembre de 2027". */
export function longDate(locale: Locale, value: Date): string {
  return formatterFor(locale).dateTime(value, { dateStyle: "long" });
}
