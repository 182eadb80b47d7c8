import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { ImportProgress } from "@/components/connect/import-progress";
import { receiptForSession, receiptUrl, returnUrl } from "@/lib/connect";
import { translatorFor } from "@/lib/i18n";
import { pageLocale } from "@/components/i18n/page-locale";
import { flowOrigin, pageState } from "../flow";

export async function generateMetadata(): Promise<Metadata> {
  return { title: translatorFor(await pageLocale())("done.metaTitle") };
}

const LINK = "font-medium text-teal-800 underline underline-offset-4";

export default async function DonePage(props: { params: Promise<{ token: string }> }) {
  const { token } = await props.params;
  const [state, locale] = await Promise.all([pageState(token, "any"), pageLocale()]);
  const t = translatorFor(locale);
  const { session, applicationName: application } = state;
  const shell = { locale, path: `/connect/${token}/done`, applicationName: application };
  if (session.status === "pending") {
    return (
      <FlowShell {...shell} step="choose" title={t("done.notFinished")}>
        <a className={PRIMARY_BUTTON} href={`/connect/${token}`}>
          {t("done.continueWhereLeft")}
        </a>
      </FlowShell>
    );
  }
  const completed = session.status === "completed";
  // The receipt as of now: reopening the link after stopping must not say "you are sharing".
  const receipt = completed ? await receiptForSession(session.id) : null;
  const link = receipt ? { id: receipt.id, url: receiptUrl(await flowOrigin(), receipt.id) } : undefined;
  const back = returnUrl(session.redirectUrl, session.id, completed ? "completed" : "cancelled", link);
  const sharing = receipt?.status === "active";
  const title = !completed
    ? t("done.nothingShared")
    : sharing || !receipt
      ? t("done.sharing", { application })
      : receipt.status === "revoked"
        ? t("done.stopped", { application })
        : t("done.ended", { application });
  return (
    <FlowShell {...shell} step="done" title={title}>
      {!completed ? (
        <p className="text-slate-700">{t("done.cancelled", { application })}</p>
      ) : sharing || !receipt ? (
        <ImportProgress token={token} initial={state.chosen.map(({ id, name, syncStatus, records }) => ({ id, name, status: syncStatus, records }))} />
      ) : (
        <p className="text-slate-700">{t("done.noLongerReads", { application })}</p>
      )}
      {link ? (
        <p className="text-slate-700">
          {t(sharing ? "done.keepLinkSharing" : "done.keepLinkShared")}{" "}
          <a className={LINK} href={link.url}>
            {t("done.receiptLink")}
          </a>
          .
        </p>
      ) : null}
      {back ? (
        <a className={PRIMARY_BUTTON} href={back}>
          {t("done.return", { application })}
        </a>
      ) : (
        <p className="text-slate-700">{t("done.close")}</p>
      )}
    </FlowShell>
  );
}
