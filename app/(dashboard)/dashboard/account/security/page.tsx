import type { Metadata } from "next";
import { EmailLanguagePanel } from "@/components/dashboard/account/email-language-panel";
import { FactorsPanel } from "@/components/dashboard/account/factors-panel";
import { SessionsPanel } from "@/components/dashboard/account/sessions-panel";
import { PageHeader } from "@/components/ui/page-header";
import { emailLanguageOf } from "@/lib/accounts";
import { enrolledFactors, listDashboardSessions, listPasskeys, secondFactorStanding, STEP_UP_MINUTES } from "@/lib/account-security";
import { requireSignIn } from "@/lib/dashboard";
import { safeReturnPath } from "@/lib/session";

export const metadata: Metadata = { title: "Account security" };

const WHY: Record<string, string> = {
  operator: "You are an operator of this deployment: approving production, suspending applications and the health systems' credentials are yours.",
  production: "You are a member of an application with production enabled or requested: its live keys, signing secret and patients' records are real health data.",
  deployment: "This deployment requires a second factor of every account.",
};

export default async function AccountSecurityPage({ searchParams }: { searchParams: Promise<{ next?: string; required?: string }> }) {
  const { next } = await searchParams;
  const { developer, session } = await requireSignIn();
  const [sessions, factors, passkeys, standing, emailLanguage] = await Promise.all([
    listDashboardSessions(developer.id),
    enrolledFactors(developer.id),
    listPasskeys(developer.id),
    secondFactorStanding(developer.id),
    emailLanguageOf(developer.id),
  ]);
  const then = typeof next === "string" ? safeReturnPath(next) : undefined;
  const mustEnrol = standing.reason !== null && !standing.enrolled;
  return (
    <div className="space-y-6">
      <PageHeader title="Account security" description="Your second factors, and every place your account is signed in." />
      {mustEnrol ? (
        <div role="status" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          <h2 className="text-base font-semibold">Set up a second factor to continue</h2>
          <p>{WHY[standing.reason!]}</p>
          <p>
            A password alone can be guessed, phished or reused from another site, so live keys, secrets and operator pages need a second proof that it is
            you. Set up an authenticator app or a passkey below (a few minutes); then save your recovery codes. Sensitive actions ask for it again when
            you have not given it in the last {STEP_UP_MINUTES} minutes.
          </p>
        </div>
      ) : null}
      <FactorsPanel
        totp={factors.totp}
        passkeys={passkeys.map((passkey) => ({ id: passkey.id, name: passkey.name, createdAt: passkey.createdAt.toISOString(), lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null }))}
        recoveryCodesLeft={factors.recoveryCodesLeft}
        next={then}
      />
      <SessionsPanel
        sessions={sessions.map((row) => ({
          id: row.id,
          device: row.device,
          address: row.address,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          waitingForSecondFactor: row.secondFactorPending,
          current: row.id === session.id,
        }))}
      />
      <EmailLanguagePanel key={emailLanguage} locale={emailLanguage} />
    </div>
  );
}
