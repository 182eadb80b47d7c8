import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { LiveSourcesTable } from "@/components/dashboard/live/live-sources-table";
import { RetentionDetail } from "@/components/dashboard/retention-detail";
import { ReceiptStatusBadge } from "@/components/dashboard/sandbox/status-badges";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyableValue } from "@/components/ui/copyable-value";
import { EmptyState } from "@/components/ui/empty-state";
import { Detail } from "@/components/ui/detail";
import { PageHeader } from "@/components/ui/page-header";
import { SyncHistoryCard } from "@/components/dashboard/sources/sync-history-card";
import { retentionState } from "@/lib/consent";
import { liveSubjectView, requireApplication, requireEnrolment } from "@/lib/dashboard";
import { sourceImportHistory } from "@/lib/imports";
import { can } from "@/lib/team";

export const metadata: Metadata = { title: "Live subject" };

export default async function LiveSubjectPage({ params }: { params: Promise<{ appId: string; subject: string }> }) {
  const { appId, subject: subjectId } = await params;
  const { application, role } = await requireApplication(appId);
  await requireEnrolment(`/dashboard/${application.id}/live`);
  const base = `/dashboard/${application.id}/live`;
  const subject = await liveSubjectView(application.id, subjectId);
  // Another application's subject, or a sandbox one, is "not found", exactly like one that does not exist.
  if (!subject) notFound();
  const { receipt } = subject;
  const histories = await sourceImportHistory(subject.sources.map((source) => source.id));
  const mayRerun = can(role, "application.manage");

  return (
    <div className="space-y-6">
      {/* Scheduled syncs run in the worker: the page follows them without a reload. */}
      <AutoRefresh active />
      <PageHeader
        title="Live subject"
        description={<CopyableValue value={subject.id} what="Subject id" />}
        actions={
          <Link href={base} className={buttonClass("secondary", "sm")}>
            All live subjects
          </Link>
        }
      />

      <Card>
        <CardHeader title="Consent" description="The patient's latest share receipt. Continuous sync runs while it is active and stops when it is revoked or expires." />
        <CardBody>
          <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <Detail label="Receipt">
              <span className="flex flex-wrap items-center gap-2">
                <ReceiptStatusBadge status={receipt?.status ?? null} />
                {receipt ? <CopyableValue value={receipt.id} what="Receipt id" /> : null}
              </span>
            </Detail>
            <Detail label="Shared categories">{receipt?.categories.join(", ") || "—"}</Detail>
            <Detail label="Granted">{receipt?.grantedAt.toISOString() ?? "—"}</Detail>
            <Detail label={receipt?.status === "revoked" ? "Revoked" : "Expires"}>{(receipt?.status === "revoked" ? receipt.revokedAt : receipt?.expiresAt)?.toISOString() ?? "—"}</Detail>
            <RetentionDetail retention={receipt ? retentionState(receipt) : null} />
          </dl>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="Sources"
          description={
            application.syncMode === "continuous"
              ? "Each health system the patient connected: its state, its last sync, when the schedule syncs it next, and the code sync.failed carried with the reason."
              : "Each health system the patient connected. One-time consent imports once: nothing is scheduled."
          }
        />
        <CardBody>
          {subject.sources.length === 0 ? (
            <EmptyState title="No sources" description="The patient has not connected a health system under this application." />
          ) : (
            <LiveSourcesTable sources={subject.sources} />
          )}
        </CardBody>
      </Card>

      <SyncHistoryCard applicationId={application.id} sources={subject.sources} histories={histories} mayRerun={mayRerun} />
    </div>
  );
}
