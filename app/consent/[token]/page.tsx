import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DANGER_BUTTON, SECONDARY_BUTTON } from "@/components/connect/flow-shell";
import { PatientViewSections } from "@/components/connect/patient-view";
import { LanguageSwitcher } from "@/components/i18n/language-switcher";
import { deletionByLink, patientViewByLink, receiptByLink } from "@/lib/connect";
import { ApiError } from "@/lib/http";
import { longDate, translatorFor } from "@/lib/i18n";
import { pageLocale } from "@/components/i18n/page-locale";
import { CATEGORIES, type Category } from "@/lib/records";
import { deleteAction, revokeAction } from "./actions";

function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: translatorFor(await pageLocale())("receipt.metaTitle"), robots: { index: false } };
}

export default async function ReceiptPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ revoked?: string; confirm?: string }> }) {
  const { token } = await props.params;
  const { revoked, confirm } = await props.searchParams;
  let receipt;
  let deletion;
  let view;
  try {
    receipt = await receiptByLink(token);
    deletion = await deletionByLink(token);
    view = await patientViewByLink(token);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
  const locale = await pageLocale();
  const t = translatorFor(locale);
  const application = receipt.applicationName;
  const date = (value: Date) => longDate(locale, value);
  return (
    <main lang={locale} className="mx-auto min-h-screen max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-teal-800">{t("receipt.brand")}</p>
        <LanguageSwitcher locale={locale} returnTo={`/consent/${token}`} />
      </div>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">{t("receipt.title", { application })}</h1>
      {deletion.purgedAt ? (
        <p role="status" className="mt-4 rounded border border-teal-300 bg-teal-50 p-3 text-teal-900">
          {t("receipt.deleted", { date: date(deletion.purgedAt) })}
        </p>
      ) : deletion.requestedAt ? (
        <p role="status" className="mt-4 rounded border border-amber-300 bg-amber-50 p-3 text-amber-950">
          {t("receipt.deletePending", { date: date(deletion.requestedAt) })}
        </p>
      ) : null}
      {revoked && !deletion.purgedAt ? (
        <p role="status" className="mt-4 rounded border border-teal-300 bg-teal-50 p-3 text-teal-900">
          {t("receipt.revoked", { application })}
        </p>
      ) : null}
      <dl className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <div>
          <dt className="text-sm text-slate-700">{t("receipt.status")}</dt>
          <dd className="font-semibold">{t(`receipt.statuses.${receipt.status}`)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t("receipt.records")}</dt>
          <dd>
            <ul className="mt-1 space-y-1">
              {receipt.categories.map((category) => (
                <li key={category}>{isCategory(category) ? t(`categories.${category}.label`) : category}</li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t("receipt.since")}</dt>
          <dd>{date(receipt.grantedAt)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{t(receipt.status === "active" ? "receipt.until" : receipt.revokedAt ? "receipt.stoppedOn" : "receipt.endedOn")}</dt>
          <dd>{date(receipt.revokedAt ?? receipt.expiresAt)}</dd>
        </div>
      </dl>
      {receipt.status === "active" && confirm !== "stop" && confirm !== "delete" ? (
        <div className="mt-6 space-y-2">
          <p className="text-sm text-slate-700">{t("receipt.canStop")}</p>
          <a className={DANGER_BUTTON} href={`/consent/${token}?confirm=stop`}>
            {t("receipt.stop", { application })}
          </a>
        </div>
      ) : null}
      {receipt.status === "active" && confirm === "stop" ? (
        <section aria-labelledby="confirm-stop" className="mt-6 space-y-3 rounded-lg border border-red-300 bg-red-50 p-4">
          <h2 id="confirm-stop" className="text-lg font-semibold text-red-900">
            {t("receipt.confirmTitle", { application })}
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-slate-900">
            <li>{t("receipt.confirmReads", { application })}</li>
            <li>{t("receipt.confirmKept", { application })}</li>
            <li>{t("receipt.confirmFinal", { application })}</li>
          </ul>
          <form action={revokeAction.bind(null, token)} className="flex flex-col gap-3 sm:flex-row">
            <button type="submit" className={DANGER_BUTTON}>
              {t("receipt.confirm")}
            </button>
            <a className={SECONDARY_BUTTON} href={`/consent/${token}`}>
              {t("receipt.keep")}
            </a>
          </form>
        </section>
      ) : null}
      {deletion.available && !deletion.requestedAt && confirm !== "delete" && confirm !== "stop" ? (
        <div className="mt-6 space-y-2">
          <p className="text-sm text-slate-700">{t("receipt.canDelete", { application })}</p>
          <a className={SECONDARY_BUTTON} href={`/consent/${token}?confirm=delete`}>
            {t("receipt.deleteCopy")}
          </a>
        </div>
      ) : null}
      {deletion.available && !deletion.requestedAt && confirm === "delete" ? (
        <section aria-labelledby="confirm-delete" className="mt-6 space-y-3 rounded-lg border border-red-300 bg-red-50 p-4">
          <h2 id="confirm-delete" className="text-lg font-semibold text-red-900">
            {t("receipt.deleteTitle")}
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-slate-900">
            {receipt.status === "active" ? <li>{t("receipt.deleteStops", { application })}</li> : null}
            <li>{t("receipt.deleteWhat", { application })}</li>
            <li>{t("receipt.deleteAppKeeps", { application })}</li>
            <li>{t("receipt.deleteKept", { application })}</li>
            <li>{t("receipt.deleteFinal", { application })}</li>
          </ul>
          <form action={deleteAction.bind(null, token)} className="flex flex-col gap-3 sm:flex-row">
            <button type="submit" className={DANGER_BUTTON}>
              {t(receipt.status === "active" ? "receipt.deleteConfirmStop" : "receipt.deleteConfirm")}
            </button>
            <a className={SECONDARY_BUTTON} href={`/consent/${token}`}>
              {t("receipt.deleteCancel")}
            </a>
          </form>
        </section>
      ) : null}
      <PatientViewSections view={view} locale={locale} token={token} />
    </main>
  );
}
