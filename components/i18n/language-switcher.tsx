import { LOCALES, translatorFor, type Locale } from "@/lib/i18n";
import { chooseLanguageAction } from "./language-actions";

/**
 * English / Español on every patient page: a form of two buttons, so it works without JavaScript; each language's
 * name is in that language (and marked so for screen readers), and the current one is pressed.
 */
export function LanguageSwitcher({ locale, returnTo }: { locale: Locale; returnTo: string }) {
  const t = translatorFor(locale);
  return (
    <form action={chooseLanguageAction} className="flex items-center justify-end gap-1 text-sm" aria-label={t("language.label")}>
      <input type="hidden" name="returnTo" value={returnTo} />
      {LOCALES.map((option) => (
        <button
          key={option}
          type="submit"
          name="locale"
          value={option}
          lang={option}
          aria-pressed={option === locale}
          className={`rounded-md px-2 py-1 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700 ${option === locale ? "bg-teal-800 text-white" : "text-teal-900 underline underline-offset-2 hover:bg-teal-50"}`}
        >
          {t(`language.${option}`)}
        </button>
      ))}
    </form>
  );
}
