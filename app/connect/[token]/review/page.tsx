import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { cancelAction, consentAction } from "../actions";
import { pageState } from "../flow";

export const metadata: Metadata = { title: "Review what you share" };

export default async function ReviewPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string }> }) {
  const { token } = await props.params;
  const { error } = await props.searchParams;
  const state = await pageState(token);
  const until = state.shareUntil.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
  const from = state.chosen.filter((provider) => provider.signedIn).map((provider) => provider.name);
  return (
    <FlowShell applicationName={state.applicationName} step="Review" title="Review what you share" cancel={cancelAction.bind(null, token)}>
      <p className="text-slate-700">
        {state.applicationName} will see the records you keep checked below, from {from.join(" and ") || "the health systems you signed in at"}, until{" "}
        {until} or until you stop sharing. Uncheck anything you don&apos;t want to share.
      </p>
      <form action={consentAction.bind(null, token)} className="space-y-4">
        {error === "categories" ? (
          <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            Keep at least one kind of record checked, or cancel below.
          </p>
        ) : null}
        <fieldset className="space-y-2">
          <legend className="font-semibold">Records to share</legend>
          {state.categories.map((item) => (
            <label key={item.category} className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-teal-700">
              <input type="checkbox" name="category" value={item.category} defaultChecked className="mt-1 h-5 w-5 accent-teal-800" />
              <span>
                <span className="block font-medium">{item.label}</span>
                <span className="block text-sm text-slate-700">{item.detail}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className={PRIMARY_BUTTON}>
          Share with {state.applicationName}
        </button>
      </form>
    </FlowShell>
  );
}
