import type { Metadata } from "next";
import { ProductionRequestCard } from "@/components/dashboard/settings/production-request";
import { AllowlistForm, DeleteCard, RedirectUrlsForm, RenameForm, SyncModeForm, type SettingsApplication } from "@/components/dashboard/settings/settings-forms";
import { PageHeader } from "@/components/ui/page-header";
import { CATEGORY_DESCRIPTIONS, latestProductionRequest, syncModeName } from "@/lib/applications";
import { requireApplication } from "@/lib/dashboard";
import { suspensionReason } from "@/lib/operators";
import { can } from "@/lib/team";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const { application, role, developer } = await requireApplication(appId);
  const [request, suspension] = await Promise.all([latestProductionRequest(application.id), application.status === "suspended" ? suspensionReason(application.id) : null]);
  const settings: SettingsApplication = {
    id: application.id,
    name: application.name,
    categoryAllowlist: application.categoryAllowlist,
    syncMode: syncModeName(application.syncMode),
    redirectUrls: application.redirectUrls,
    productionEnabled: application.productionEnabled,
    status: application.status,
  };
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description="What this application may ask patients for, where they return to, and whether it is live." />
      <RenameForm application={settings} />
      <AllowlistForm application={settings} categories={[...CATEGORY_DESCRIPTIONS]} />
      <SyncModeForm application={settings} />
      <RedirectUrlsForm application={settings} />
      <ProductionRequestCard
        application={settings}
        request={request && { status: request.status, description: request.description, redirectUrls: request.redirectUrls, decisionReason: request.decisionReason, createdAt: request.createdAt.toISOString(), decidedAt: request.decidedAt?.toISOString() ?? null }}
        suspensionReason={suspension}
        canRequest={can(role, "production.enable")}
        contactEmail={request?.contactEmail ?? developer.email}
      />
      <DeleteCard application={settings} canDelete={can(role, "application.delete")} />
    </div>
  );
}
