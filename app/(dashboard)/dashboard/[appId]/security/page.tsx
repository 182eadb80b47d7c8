import type { Metadata } from "next";
import { AuditTrail } from "@/components/dashboard/audit/audit-trail";
import { Card, CardBody } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { auditTrailPage, requireApplication } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage({ params, searchParams }: { params: Promise<{ appId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { appId } = await params;
  const { application } = await requireApplication(appId);
  const trail = await auditTrailPage({ applicationId: application.id }, await searchParams);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Security"
        description="Every security-relevant change to this application, newest first: keys, webhook URL and signing secret, team and roles, categories, sync mode, redirect URLs, production and suspension, delegated credentials. Who acted, from which address, when, and what it was before and after. Secrets are never recorded, only that they changed. Entries cannot be edited or deleted."
      />
      <Card>
        <CardBody>
          <AuditTrail {...trail} path={`/dashboard/${application.id}/security`} caption="Audit trail, newest first" />
        </CardBody>
      </Card>
    </div>
  );
}
