import type { Metadata } from "next";
import Link from "next/link";
import { FlowShell, PRIMARY_BUTTON } from "@/components/connect/flow-shell";
import { cancelAction, signInAction } from "../actions";
import { pageState } from "../flow";

export const metadata: Metadata = { title: "Sign in to your health systems" };

export default async function SignInPage(props: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string }> }) {
  const { token } = await props.params;
  const { error } = await props.searchParams;
  const state = await pageState(token);
  const signedIn = state.chosen.filter((provider) => provider.signedIn).length;
  return (
    <FlowShell applicationName={state.applicationName} step="Sign in" title="Sign in at each health system" cancel={cancelAction.bind(null, token)}>
      <p className="text-slate-700">
        You sign in on each health system&apos;s own page; Chartkey never sees your password. Then come back here.
      </p>
      {error ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          Signing in did not finish{error === "access_denied" ? " because access was declined" : ""}. You can try again.
        </p>
      ) : null}
      <ul className="space-y-3">
        {state.chosen.map((provider) => (
          <li key={provider.id} className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-4 sm:flex-row sm:items-center sm:justify-between">
            <span>
              <span className="block font-medium">{provider.name}</span>
              <span className="block text-sm text-slate-700">{provider.signedIn ? "Signed in" : "Not signed in yet"}</span>
            </span>
            {provider.signedIn ? (
              <span className="text-sm font-semibold text-teal-800" aria-hidden="true">
                ✓
              </span>
            ) : (
              <form action={signInAction.bind(null, token, provider.id)}>
                <button type="submit" className={PRIMARY_BUTTON}>
                  Sign in at {provider.name}
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {signedIn > 0 ? (
          <Link href={`/connect/${token}/review`} className={PRIMARY_BUTTON}>
            Continue to review
          </Link>
        ) : null}
        <Link href={`/connect/${token}/start`} className="text-sm font-medium text-slate-700 underline underline-offset-4">
          Change health systems
        </Link>
      </div>
    </FlowShell>
  );
}
