import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { ImportProgress } from "@/components/connect/import-progress";
import { receiptForSession, receiptUrl, returnUrl } from "@/lib/connect";
import { flowOrigin, pageState } from "../flow";

export const metadata: Metadata = { title: "Done" };

const LINK = "font-medium text-teal-800 underline underline-offset-4";

export default async function DonePage(props: { params: Promise<{ token: string }> }) {
  const { token } = await props.params;
  const state = await pageState(token, "any");
  const { session, applicationName } = state;
  if (session.status === "pending") {
    return (
      <FlowShell applicationName={applicationName} step="Choose" title="You have not finished yet">
        <a className={PRIMARY_BUTTON} href={`/connect/${token}`}>
          Continue where you left off
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
    ? "Nothing was shared"
    : sharing || !receipt
      ? `You are sharing with ${applicationName}`
      : receipt.status === "revoked"
        ? `You stopped sharing with ${applicationName}`
        : `Sharing with ${applicationName} has ended`;
  return (
    <FlowShell applicationName={applicationName} step="Done" title={title}>
      {!completed ? (
        <p className="text-slate-700">You cancelled, so {applicationName} received none of your records.</p>
      ) : sharing || !receipt ? (
        <ImportProgress token={token} initial={state.chosen.map(({ id, name, syncStatus, records }) => ({ id, name, status: syncStatus, records }))} />
      ) : (
        <p className="text-slate-700">
          {applicationName} can no longer read your records. Records it received before stay with it.
        </p>
      )}
      {link ? (
        <p className="text-slate-700">
          {sharing ? "Keep this private link to see what you share and to stop sharing at any time: " : "Keep this private link to see what you shared: "}
          <a className={LINK} href={link.url}>
            your sharing receipt
          </a>
          .
        </p>
      ) : null}
      {back ? (
        <a className={PRIMARY_BUTTON} href={back}>
          Return to {applicationName}
        </a>
      ) : (
        <p className="text-slate-700">You can close this page.</p>
      )}
    </FlowShell>
  );
}
