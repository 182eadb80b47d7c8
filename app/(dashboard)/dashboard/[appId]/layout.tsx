import type { ReactNode } from "react";
import { ApplicationNav } from "@/components/dashboard/application-nav";
import { ApplicationStatusBadge } from "@/components/dashboard/application-status";
import { Badge } from "@/components/ui/badge";
import { requireApplication } from "@/lib/dashboard";
import { CopyableValue } from "@/components/ui/copyable-value";

export default async function ApplicationLayout({ children, params }: { children: ReactNode; params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const { application, role } = await requireApplication(appId);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-lg font-semibold text-slate-900">{application.name}</p>
        <ApplicationStatusBadge status={application.status} productionEnabled={application.productionEnabled} />
        <Badge>{role === "owner" ? "Owner" : "Member"}</Badge>
        <CopyableValue value={application.id} what="Application id" />
      </div>
      <ApplicationNav applicationId={application.id} />
      <div>{children}</div>
    </div>
  );
}
