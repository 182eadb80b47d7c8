import { describe, expect, it } from "vitest";
import { documentLanguage, negotiateLocale, requestLocale } from "./locales";
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };
import { longDate, translatorFor } from "./translator";

function keys(value: object, prefix = ""): string[] {
  return Object.entries(value).flatMap(([key, child]) => (typeof child === "object" && child !== null ? keys(child, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

describe("the patient pages' languages", () => {
  it("has every English message in Spanish and nothing more, none left empty or untranslated", () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
    const flat = (catalog: object) => Object.fromEntries(keys(catalog).map((key) => [key, key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalog) as string]));
    const english = flat(en);
    const spanish = flat(es);
    const sameInBoth = Object.keys(english).filter((key) => english[key] === spanish[key]);
    // Only the language names, each written in its own language, are the same in both.
    expect(sameInBoth.sort()).toEqual(["language.en", "language.es"]);
    expect(Object.values(spanish).every((text) => text.trim().length > 0)).toBe(true);
  });

  it("chooses the switcher's choice, then ui_locales, then the best Accept-Language match, then English", () => {
    expect(negotiateLocale({ chosen: "es", acceptLanguage: "en" })).toBe("es");
    expect(negotiateLocale({ chosen: "fr", acceptLanguage: "es-MX,es;q=0.9" })).toBe("es");
    expect(negotiateLocale({ uiLocales: "fr-CA es-419", acceptLanguage: "en" })).toBe("es");
    expect(negotiateLocale({ acceptLanguage: "fr-FR,fr;q=0.9,es;q=0.8,en;q=0.7" })).toBe("es");
    expect(negotiateLocale({ acceptLanguage: "de-DE" })).toBe("en");
    expect(negotiateLocale({ acceptLanguage: "es;q=0.1, en;q=0.9" })).toBe("en");
    expect(negotiateLocale({ acceptLanguage: "not a header ;;; q=x" })).toBe("en");
    expect(negotiateLocale({})).toBe("en");
    expect(requestLocale(new Request("http://x/connect/abc", { headers: { cookie: "a=1; chartkey_locale=es", "accept-language": "en" } }))).toBe("es");
  });

  it("formats dates and plurals per language", () => {
    const day = new Date("2027-11-25T12:00:00Z");
    expect(longDate("en", day)).toBe("November 25, 2027");
    expect(longDate("es", day)).toBe("25 de noviembre de 2027");
    expect(translatorFor("en")("progress.records", { count: 1 })).toBe("1 record");
    expect(translatorFor("es")("progress.records", { count: 1234 })).toBe("1234 registros");
    expect(translatorFor("en")("progress.records", { count: 1234 })).toBe("1,234 records");
  });
});

describe("the document's language", () => {
  it("is the patient page's negotiated locale, and English for any other page or a value that is not a locale", () => {
    expect(documentLanguage("es")).toBe("es");
    expect(documentLanguage("en")).toBe("en");
    expect(documentLanguage(null)).toBe("en");
    expect(documentLanguage("fr")).toBe("en");
    expect(documentLanguage("es\" onload=\"x")).toBe("en");
  });
});
