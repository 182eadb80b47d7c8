import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PasskeyButton } from "@/components/dashboard/account/passkey-button";
import { SignInForm } from "@/components/dashboard/auth-forms";
import { currentSignIn, SECOND_FACTOR_PATH } from "@/lib/dashboard";
import { safeReturnPath } from "@/lib/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; expired?: string }> }) {
  const { next, expired } = await searchParams;
  const signedIn = await currentSignIn();
  if (signedIn?.session.secondFactorPending) redirect(`${SECOND_FACTOR_PATH}?${new URLSearchParams({ next: safeReturnPath(next) })}`);
  if (signedIn) redirect(safeReturnPath(next));
  return (
    <>
      <h1 className="text-xl font-bold tracking-tight text-slate-900">Sign in to the dashboard</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Manage your applications, keys, webhooks and sandbox.</p>
      {expired ? (
        <p role="status" className="mb-6 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Your session ended, so nothing was changed. Sign in again to continue where you were.
        </p>
      ) : null}
      <SignInForm next={typeof next === "string" ? next : undefined} />
      <div className="mt-6 border-t border-slate-200 pt-6">
        <PasskeyButton mode="sign_in" next={typeof next === "string" ? next : undefined} />
      </div>
    </>
  );
}
