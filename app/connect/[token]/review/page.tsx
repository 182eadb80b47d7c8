import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { longDate, translatorFor } from "@/lib/i18n";
import { pageLocale } from "@/components/i18n/page-locale";
import { cancelAction, consentAction } from "../actions";
import { pageState } from "../flow";

export async function generateMetadata(): Promise<Metadata> {
  return { title: translatorFor(await pageLocale())("review.metaTitle") };
}

export default async function ReviewPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string; confirm?: string }> }) {
  const { token } = await props.params;
  const { error, confirm } = await props.searchParams;
  const [state, locale] = await Promise.all([pageState(token), pageLocale()]);
  const t = translatorFor(locale);
  const application = state.applicationName;
  const from = state.chosen.filter((provider) => provider.signedIn).map((provider) => provider.name);
  const sources = from.length > 0 ? new Intl.ListFormat(locale, { type: "conjunction" }).format(from) : t("review.fallbackSources");
  return (
    <FlowShell locale={locale} path={`/connect/${token}/review`} applicationName={application} step="review" title={t("review.title")} cancel={cancelAction.bind(null, token)}
      confirmingCancel={confirm === "cancel"}>
      <p className="text-slate-700">{t("review.intro", { application, sources, until: longDate(locale, state.shareUntil) })}</p>
      {state.chosen
        .filter((provider) => provider.broaderRequest)
        .map((provider) => (
          <p key={provider.id} className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="broader-request">
            {t("review.broaderRequest", { provider: provider.name, application })}
          </p>
        ))}
      <form action={consentAction.bind(null, token)} className="space-y-4">
        {error === "categories" ? (
          <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {t("review.keepOne")}
          </p>
        ) : null}
        <fieldset className="space-y-2">
          <legend className="font-semibold">{t("review.legend")}</legend>
          {state.categories.map((category) => (
            <label key={category} className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-teal-700">
              <input type="checkbox" name="category" value={category} defaultChecked className="mt-1 h-5 w-5 accent-teal-800" />
              <span>
                <span className="block font-medium">{t(`categories.${category}.label`)}</span>
                <span className="block text-sm text-slate-700">{t(`categories.${category}.detail`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className={PRIMARY_BUTTON}>
          {t("review.share", { application })}
        </button>
      </form>
    </FlowShell>
  );
}
