import type { Metadata } from "next";
import Link from "next/link";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { translatorFor } from "@/lib/i18n";
import { pageLocale } from "@/components/i18n/page-locale";
import { cancelAction, signInAction } from "../actions";
import { pageState } from "../flow";

export async function generateMetadata(): Promise<Metadata> {
  return { title: translatorFor(await pageLocale())("signIn.metaTitle") };
}

export default async function SignInPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string; confirm?: string }> }) {
  const { token } = await props.params;
  const { error, confirm } = await props.searchParams;
  const [state, locale] = await Promise.all([pageState(token), pageLocale()]);
  const t = translatorFor(locale);
  const signedIn = state.chosen.filter((provider) => provider.signedIn).length;
  const askingBroadly = await state.providersAskingBroadly();
  return (
    <FlowShell
      locale={locale}
      path={`/connect/${token}/sign-in`}
      applicationName={state.applicationName}
      step="signIn"
      title={t("signIn.title")}
      cancel={cancelAction.bind(null, token)}
      confirmingCancel={confirm === "cancel"}
    >
      <p className="text-slate-700">{t("signIn.intro")}</p>
      {error ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {t(error === "access_denied" ? "signIn.declined" : "signIn.failed")}
        </p>
      ) : null}
      <ul className="space-y-3">
        {state.chosen.map((provider) => (
          <li key={provider.id} className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
            <span>
              <span className="block font-medium">{provider.name}</span>
              <span className="block text-sm text-slate-700">{t(provider.signedIn ? "signIn.signedIn" : "signIn.notYet")}</span>
              {!provider.signedIn && askingBroadly.has(provider.id) ? (
                <span className="mt-2 block rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950" data-testid="broader-request">
                  {t("signIn.broaderRequest", { provider: provider.name, application: state.applicationName })}
                </span>
              ) : null}
            </span>
            {provider.signedIn ? (
              <span className="text-sm font-semibold text-teal-800" aria-hidden="true">
                ✓
              </span>
            ) : (
              <form action={signInAction.bind(null, token, provider.id)}>
                <button type="submit" className={PRIMARY_BUTTON}>
                  {t("signIn.signInAt", { provider: provider.name })}
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {signedIn > 0 ? (
          <Link href={`/connect/${token}/review`} className={PRIMARY_BUTTON}>
            {t("signIn.continue")}
          </Link>
        ) : null}
        <Link href={`/connect/${token}/start`} className="text-sm font-medium text-slate-700 underline underline-offset-4">
          {t("signIn.change")}
        </Link>
      </div>
    </FlowShell>
  );
}
