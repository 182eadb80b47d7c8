import type { Metadata } from "next";
import { KeysPanel } from "@/components/dashboard/keys/keys-panel";
import { PageHeader } from "@/components/ui/page-header";
import { listKeysFor } from "@/lib/applications";
import { dashboardOrigin, requireApplication, requireEnrolment } from "@/lib/dashboard";
import { can } from "@/lib/team";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const access = await requireApplication(appId);
  // Live keys: an account that must have a second factor enrols first (lib/dashboard/second-factor-gate.ts).
  await requireEnrolment(`/dashboard/${access.application.id}/keys`);
  const [keys, origin] = await Promise.all([listKeysFor(access), dashboardOrigin()]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="Keys authenticate your backend as this application. Sandbox keys reach synthetic patients; live keys reach real ones. A key is shown once, when you create it."
      />
      <KeysPanel
        applicationId={access.application.id}
        origin={origin}
        liveEnabled={access.application.productionEnabled}
        canCreate={{ sandbox: can(access.role, "keys.sandbox"), live: can(access.role, "keys.live") }}
        keys={keys.map((key) => ({
          id: key.id,
          name: key.name,
          displayPrefix: key.displayPrefix,
          environment: key.environment,
          createdAt: key.createdAt.toISOString(),
          lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
          revokedAt: key.revokedAt?.toISOString() ?? null,
        }))}
      />
    </div>
  );
}
