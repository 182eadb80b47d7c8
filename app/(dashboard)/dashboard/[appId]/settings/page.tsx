import type { Metadata } from "next";
import { AllowlistForm, DeleteCard, ProductionCard, RedirectUrlsForm, RenameForm, SyncModeForm, type SettingsApplication } from "@/components/dashboard/settings/settings-forms";
import { PageHeader } from "@/components/ui/page-header";
import { CATEGORY_DESCRIPTIONS, syncModeName } from "@/lib/applications";
import { requireApplication } from "@/lib/dashboard";
import { can } from "@/lib/team";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const { application, role } = await requireApplication(appId);
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
      <ProductionCard application={settings} canEnable={can(role, "production.enable")} />
      <DeleteCard application={settings} canDelete={can(role, "application.delete")} />
    </div>
  );
}
