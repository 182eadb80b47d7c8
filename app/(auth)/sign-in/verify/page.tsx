import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PasskeyButton } from "@/components/dashboard/account/passkey-button";
import { SecondFactorForm } from "@/components/dashboard/account/second-factor-form";
import { enrolledFactors } from "@/lib/account-security";
import { currentSignIn } from "@/lib/dashboard";
import { safeReturnPath, SIGN_IN_PATH } from "@/lib/session";

export const metadata: Metadata = { title: "Second factor" };

/** The sign-in's second step: the password was accepted; the session waits for the account's second factor. */
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const then = safeReturnPath(next);
  const signedIn = await currentSignIn();
  if (!signedIn) redirect(`${SIGN_IN_PATH}?${new URLSearchParams({ next: then })}`);
  if (!signedIn.session.secondFactorPending) redirect(then);
  const factors = await enrolledFactors(signedIn.developer.id);
  return (
    <>
      <h1 className="text-xl font-bold tracking-tight text-slate-900">Confirm it is you</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Your password was right. Your account also asks for its second factor.</p>
      <div className="space-y-6">
        {factors.passkeys > 0 ? <PasskeyButton mode="second_factor" next={then} /> : null}
        <SecondFactorForm next={then} totp={factors.totp} />
      </div>
    </>
  );
}
