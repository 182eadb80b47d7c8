import type { Metadata } from "next";
import { SessionsPanel } from "@/components/dashboard/account/sessions-panel";
import { PageHeader } from "@/components/ui/page-header";
import { listDashboardSessions } from "@/lib/account-security";
import { requireSignIn } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Security" };

export default async function AccountSecurityPage() {
  const { developer, session } = await requireSignIn();
  const sessions = await listDashboardSessions(developer.id);
  return (
    <div className="space-y-6">
      <PageHeader title="Account security" description="Your second factors, and every place your account is signed in." />
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
    </div>
  );
}
