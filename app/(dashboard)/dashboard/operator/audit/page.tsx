import type { Metadata } from "next";
import Link from "next/link";
import { AuditTrail } from "@/components/dashboard/audit/audit-trail";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { auditTrailPage, OPERATOR_PATH, requireOperatorPage } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Audit trail" };

export default async function OperatorAuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireOperatorPage();
  const trail = await auditTrailPage({ deployment: true }, await searchParams);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit trail"
        description="Every security-relevant action on this deployment, newest first: sign-ins (failed ones too), every application's changes, and every operator action. Only operators see this page."
        actions={
          <Link href={OPERATOR_PATH} className={buttonClass("secondary")}>
            Operator
          </Link>
        }
      />
      <Card>
        <CardBody>
          <AuditTrail {...trail} path={`${OPERATOR_PATH}/audit`} caption="Deployment audit trail, newest first" showApplication />
        </CardBody>
      </Card>
    </div>
  );
}
