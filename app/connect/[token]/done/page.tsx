import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { ImportProgress } from "@/components/connect/import-progress";
import { linkToken, receiptIdForSession, returnUrl } from "@/lib/connect";
import { pageState } from "../flow";

export const metadata: Metadata = { title: "Done" };

export default async function DonePage(props: { params: Promise<{ token: string }> }) {
  const { token } = await props.params;
  const state = await pageState(token, "any");
  const { session } = state;
  if (session.status === "pending") {
    return (
      <FlowShell applicationName={state.applicationName} step="Choose" title="You have not finished yet">
        <a className={PRIMARY_BUTTON} href={`/connect/${token}`}>
          Continue where you left off
        </a>
      </FlowShell>
    );
  }
  const completed = session.status === "completed";
  const back = returnUrl(session.redirectUrl, session.id, completed ? "completed" : "cancelled");
  const receipt = completed ? await receiptIdForSession(session.id) : null;
  return (
    <FlowShell applicationName={state.applicationName} step="Done" title={completed ? `You are sharing with ${state.applicationName}` : "Nothing was shared"}>
      {completed ? (
        <>
          <ImportProgress token={token} initial={state.chosen.map(({ id, name, syncStatus, records }) => ({ id, name, status: syncStatus, records }))} />
          {receipt ? (
            <p className="text-slate-700">
              Keep this private link to see what you share and to stop sharing at any time:{" "}
              <a className="font-medium text-teal-800 underline underline-offset-4" href={`/consent/${linkToken("receipt", receipt)}`}>
                your sharing receipt
              </a>
              .
            </p>
          ) : null}
        </>
      ) : (
        <p className="text-slate-700">You cancelled, so {state.applicationName} received none of your records.</p>
      )}
      {back ? (
        <a className={PRIMARY_BUTTON} href={back}>
          Return to {state.applicationName}
        </a>
      ) : (
        <p className="text-slate-700">You can close this page.</p>
      )}
    </FlowShell>
  );
}
