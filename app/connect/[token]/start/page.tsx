import type { Metadata } from "next";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { LiveProviderPicker } from "@/components/connect/live-provider-picker";
import { ProviderPicker } from "@/components/connect/provider-picker";
import { cancelAction, chooseProvidersAction } from "../actions";
import { pageState } from "../flow";

export const metadata: Metadata = { title: "Share your health records" };

export default async function StartPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string }> }) {
  const { token } = await props.params;
  const { error } = await props.searchParams;
  const state = await pageState(token);
  return (
    <FlowShell applicationName={state.applicationName} step="Choose" title={`${state.applicationName} asks to see some of your health records`} cancel={cancelAction.bind(null, token)}>
      <section aria-labelledby="what" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="what" className="font-semibold">
          What they ask for
        </h2>
        <ul className="mt-2 space-y-2">
          {state.categories.map((item) => (
            <li key={item.category}>
              <span className="font-medium">{item.label}</span>
              <span className="block text-sm text-slate-700">{item.detail}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-700">You will review this before anything is shared, and you can stop sharing at any time.</p>
      </section>
      <form action={chooseProvidersAction.bind(null, token)} className="space-y-4">
        {error === "choose" ? (
          <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            Choose at least one health system.
          </p>
        ) : null}
        {state.session.environment === "live" ? (
          <LiveProviderPicker providers={state.providers} selected={state.session.providerIds} />
        ) : (
          <ProviderPicker providers={state.providers} selected={state.session.providerIds} />
        )}
        <button type="submit" className={PRIMARY_BUTTON}>
          Continue
        </button>
      </form>
    </FlowShell>
  );
}
