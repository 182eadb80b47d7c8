import type { Metadata } from "next";
import Link from "next/link";
import { PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { translatorFor } from "@/lib/i18n";
import { pageLocale } from "@/components/i18n/page-locale";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/**
 * Every unknown path and every notFound() outside the dashboard (a mistyped or unknown sharing-receipt link among
 * them) lands here, in the patient's language. It is styled by the stylesheet alone, so the pages' CSP (no inline
 * styles without a nonce) blocks nothing, unlike Next's built-in page. The same words whether a link never existed
 * or was mistyped: a link reveals nothing.
 */
export default async function NotFound() {
  const locale = await pageLocale();
  const t = translatorFor(locale);
  return (
    <main lang={locale} className="mx-auto min-h-screen max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <p className="text-xs font-semibold uppercase tracking-wide text-teal-800">Chartkey</p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">{t("notFound.title")}</h1>
      <p className="mt-4 text-slate-700">{t("notFound.body")}</p>
      <Link href="/" className={`mt-6 ${PRIMARY_BUTTON}`}>
        {t("notFound.home")}
      </Link>
    </main>
  );
}
