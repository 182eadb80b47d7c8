import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { ProviderPicker } from "@/components/connect/provider-picker";
import { translatorFor } from "@/lib/i18n";
import { pageLocale } from "@/components/i18n/page-locale";
import { cancelAction, chooseProvidersAction } from "../actions";
import { pageState } from "../flow";

export async function generateMetadata(): Promise<Metadata> {
  return { title: translatorFor(await pageLocale())("start.metaTitle") };
}

export default async function StartPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string; confirm?: string }> }) {
  const { token } = await props.params;
  const { error, confirm } = await props.searchParams;
  const [state, locale] = await Promise.all([pageState(token), pageLocale()]);
  const t = translatorFor(locale);
  const application = state.applicationName;
  return (
    <FlowShell
      locale={locale}
      path={`/connect/${token}/start`}
      applicationName={application}
      step="choose"
      title={t("start.title", { application })}
      cancel={cancelAction.bind(null, token)}
      confirmingCancel={confirm === "cancel"}
    >
      <section aria-labelledby="what" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="what" className="font-semibold">
          {t("start.whatTheyAsk")}
        </h2>
        <ul className="mt-2 space-y-2">
          {state.categories.map((category) => (
            <li key={category}>
              <span className="font-medium">{t(`categories.${category}.label`)}</span>
              <span className="block text-sm text-slate-700">{t(`categories.${category}.detail`)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-700">{t("start.reviewLater")}</p>
      </section>
      <form action={chooseProvidersAction.bind(null, token)} className="space-y-4">
        {error === "choose" ? (
          <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {t("start.chooseOne")}
          </p>
        ) : null}
        <ProviderPicker providers={state.providers} selected={state.session.providerIds} />
        <button type="submit" className={PRIMARY_BUTTON}>
          {t("start.continue")}
        </button>
      </form>
    </FlowShell>
  );
}
