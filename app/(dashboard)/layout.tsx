import { LogOut } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { VerificationBanner } from "@/components/dashboard/email/verification-banner";
import { DashboardProviders } from "@/components/ui/providers";
import { endDashboardSession } from "@/lib/account-security";
import { auditedRequest, canReadOutbox, currentSignIn, isSignedInOperator, OPERATOR_PATH, requireDeveloper, signOut } from "@/lib/dashboard";

/** Signs out: the session's row ends too (audited), so the cookie is worth nothing even if it was copied. */
async function signOutAction() {
  "use server";
  const signedIn = await currentSignIn();
  if (signedIn) await auditedRequest(() => endDashboardSession(signedIn.developer.id, signedIn.session.id, "sign_out"));
  await signOut({ redirectTo: "/sign-in" });
}

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const developer = await requireDeveloper();
  const operator = await isSignedInOperator();
  const outbox = await canReadOutbox(developer);
  return (
    <DashboardProviders>
      <a href="#content" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <nav aria-label="Dashboard" className="flex flex-wrap items-center gap-x-3 gap-y-1 sm:gap-4">
            <Link href="/dashboard" className="hidden text-sm font-bold uppercase tracking-wide text-teal-800 sm:inline">
              Chartkey
            </Link>
            <Link href="/dashboard" className="text-sm font-medium text-slate-700 hover:text-slate-900">
              Applications
            </Link>
            {operator ? (
              <Link href={OPERATOR_PATH} className="text-sm font-medium text-slate-700 hover:text-slate-900">
                Operator
              </Link>
            ) : null}
            {outbox ? (
              <Link href="/dashboard/outbox" className="text-sm font-medium text-slate-700 hover:text-slate-900">
                Outbox
              </Link>
            ) : null}
            <Link href="/docs" className="text-sm font-medium text-slate-700 hover:text-slate-900">
              API reference
            </Link>
            <Link href="/dashboard/account/security" className="text-sm font-medium text-slate-700 hover:text-slate-900">
              Account
            </Link>
          </nav>
          <div className="flex items-center gap-3">
            <span className="hidden text-right text-xs text-slate-600 sm:block">
              <span className="block font-medium text-slate-900">{developer.name}</span>
              {developer.email}
            </span>
            <form action={signOutAction}>
              <Button type="submit" variant="ghost" size="sm">
                <LogOut aria-hidden="true" className="h-4 w-4" />
                <span className="sr-only sm:not-sr-only">Sign out</span>
              </Button>
            </form>
          </div>
        </div>
      </header>
      <VerificationBanner developer={developer} />
      <main id="content" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </DashboardProviders>
  );
}
