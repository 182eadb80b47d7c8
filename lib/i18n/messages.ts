import type { Locale } from "./locales";
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };

/** The message catalog: every patient-facing string, in ICU message syntax, one file per language. */
export type Messages = typeof en;

const CATALOGS: Record<Locale, Messages> = { en, es };

export function messagesFor(locale: Locale): Messages {
  return CATALOGS[locale];
}
