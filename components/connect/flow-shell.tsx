import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/i18n/language-switcher";
import { PatientIntlProvider } from "@/components/i18n/patient-intl-provider";
import { messagesFor, translatorFor, type Locale } from "@/lib/i18n";

const STEPS = ["choose", "signIn", "review", "done"] as const;
export type FlowStep = (typeof STEPS)[number];

/**
 * The frame of every hosted-flow page: who is asking, where the patient is, the language switcher, and a way out at
 * every step. `lang` on the page's main element: the document's root says English for the dashboard's sake.
 */
export function FlowShell(props: {
  locale: Locale;
  path: string;
  applicationName: string;
  step: FlowStep;
  title: string;
  children: ReactNode;
  cancel?: () => Promise<void>;
  /** The page was asked to confirm a cancel (`?confirm=cancel`): one more tap, with "Keep sharing" first. */
  confirmingCancel?: boolean;
}) {
  const t = translatorFor(props.locale);
  const current = STEPS.indexOf(props.step);
  return (
    <main lang={props.locale} className="mx-auto min-h-screen max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-teal-800">{t("flow.brand", { application: props.applicationName })}</p>
        <LanguageSwitcher locale={props.locale} returnTo={props.path} />
      </div>
      <nav aria-label={t("flow.progress")} className="mt-4">
        <ol className="flex gap-2 text-xs sm:text-sm">
          {STEPS.map((step, index) => (
            <li
              key={step}
              aria-current={index === current ? "step" : undefined}
              className={`flex-1 rounded-full px-2 py-1 text-center ${index === current ? "bg-teal-800 font-semibold text-white" : index < current ? "bg-teal-100 text-teal-900" : "bg-slate-200 text-slate-700"}`}
            >
              {t(`flow.steps.${step}`)}
            </li>
          ))}
        </ol>
      </nav>
      <h1 className="mt-8 text-2xl font-bold tracking-tight sm:text-3xl">{props.title}</h1>
      <PatientIntlProvider locale={props.locale} messages={messagesFor(props.locale)}>
        <div className="mt-6 space-y-6">{props.children}</div>
      </PatientIntlProvider>
      {props.cancel && props.confirmingCancel ? (
        <section aria-labelledby="confirm-cancel" className="mt-10 space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
          <h2 id="confirm-cancel" className="text-lg font-semibold text-amber-950">
            {t("flow.cancelTitle")}
          </h2>
          <p className="text-sm text-amber-950">{t("flow.cancelBody", { application: props.applicationName })}</p>
          <div className="flex flex-col gap-3 sm:flex-row">
            <a className={PRIMARY_BUTTON} href={props.path}>
              {t("flow.keepSharing")}
            </a>
            <form action={props.cancel}>
              <button type="submit" className={SECONDARY_BUTTON}>
                {t("flow.cancelConfirm")}
              </button>
            </form>
          </div>
        </section>
      ) : props.cancel ? (
        <p className="mt-10 border-t border-slate-200 pt-6">
          <a
            href={`${props.path}?confirm=cancel#confirm-cancel`}
            className="text-sm font-medium text-slate-700 underline underline-offset-4 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700"
          >
            {t("flow.cancel")}
          </a>
        </p>
      ) : null}
    </main>
  );
}

export const PRIMARY_BUTTON =
  "inline-flex w-full items-center justify-center rounded-lg bg-teal-800 px-4 py-3 font-semibold text-white hover:bg-teal-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700 focus-visible:ring-offset-2 sm:w-auto";

export const DANGER_BUTTON =
  "inline-flex w-full items-center justify-center rounded-lg bg-red-800 px-4 py-3 font-semibold text-white hover:bg-red-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-700 focus-visible:ring-offset-2 sm:w-auto";

export const SECONDARY_BUTTON =
  "inline-flex w-full items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-3 font-semibold text-slate-900 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700 focus-visible:ring-offset-2 sm:w-auto";
