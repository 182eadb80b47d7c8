import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DANGER_BUTTON, SECONDARY_BUTTON } from "@/components/connect/flow-shell";
import { CATEGORY_TEXT, receiptByLink } from "@/lib/connect";
import { ApiError } from "@/lib/http";
import type { Category } from "@/lib/records";
import { revokeAction } from "./actions";

export const metadata: Metadata = { title: "Your sharing receipt", robots: { index: false } };

const STATUS_TEXT = { active: "Sharing now", revoked: "You stopped sharing", expired: "Sharing has ended" } as const;

export default async function ReceiptPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ revoked?: string; confirm?: string }> }) {
  const { token } = await props.params;
  const { revoked, confirm } = await props.searchParams;
  let receipt;
  try {
    receipt = await receiptByLink(token);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
  const date = (value: Date) => value.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
  return (
    <main className="mx-auto min-h-screen max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <p className="text-xs font-semibold uppercase tracking-wide text-teal-800">Chartkey · your sharing receipt</p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">What you share with {receipt.applicationName}</h1>
      {revoked ? (
        <p role="status" className="mt-4 rounded border border-teal-300 bg-teal-50 p-3 text-teal-900">
          You stopped sharing. {receipt.applicationName} can no longer read your records.
        </p>
      ) : null}
      <dl className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <div>
          <dt className="text-sm text-slate-700">Status</dt>
          <dd className="font-semibold">{STATUS_TEXT[receipt.status]}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">Records shared</dt>
          <dd>
            <ul className="mt-1 space-y-1">
              {receipt.categories.map((category) => (
                <li key={category}>{CATEGORY_TEXT[category as Category]?.label ?? category}</li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">Since</dt>
          <dd>{date(receipt.grantedAt)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700">{receipt.status === "active" ? "Until" : receipt.revokedAt ? "Stopped" : "Ended"}</dt>
          <dd>{date(receipt.revokedAt ?? receipt.expiresAt)}</dd>
        </div>
      </dl>
      {receipt.status === "active" && confirm !== "stop" ? (
        <div className="mt-6 space-y-2">
          <p className="text-sm text-slate-700">You can stop sharing at any time. We ask you to confirm first.</p>
          <a className={DANGER_BUTTON} href={`/consent/${token}?confirm=stop`}>
            Stop sharing with {receipt.applicationName}…
          </a>
        </div>
      ) : null}
      {receipt.status === "active" && confirm === "stop" ? (
        <section aria-labelledby="confirm-stop" className="mt-6 space-y-3 rounded-lg border border-red-300 bg-red-50 p-4">
          <h2 id="confirm-stop" className="text-lg font-semibold text-red-900">
            Stop sharing with {receipt.applicationName}?
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-slate-900">
            <li>{receipt.applicationName} can no longer read your records, from the moment you confirm.</li>
            <li>Records it already received stay with it; ask {receipt.applicationName} if you want them deleted.</li>
            <li>This cannot be undone. To share again, connect again from {receipt.applicationName}.</li>
          </ul>
          <form action={revokeAction.bind(null, token)} className="flex flex-col gap-3 sm:flex-row">
            <button type="submit" className={DANGER_BUTTON}>
              Yes, stop sharing
            </button>
            <a className={SECONDARY_BUTTON} href={`/consent/${token}`}>
              Keep sharing
            </a>
          </form>
        </section>
      ) : null}
    </main>
  );
}
