import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { scheduleText } from "@/components/dashboard/live/live-sources-table";
import { ReceiptStatusBadge, SyncStatusBadge } from "@/components/dashboard/sandbox/status-badges";
import { Button, buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { syncIntervalMinutes } from "@/lib/config";
import { LIVE_SUBJECTS_PAGE, liveSubjectView, liveSubjectViews, requireApplication, requireEnrolment, type LiveSourceView } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Live subjects" };

/** The source that most needs attention: failed before partial before syncing, pending and synced. */
const URGENCY = ["failed", "partial", "syncing", "pending", "synced"];
function worst(sources: LiveSourceView[]): LiveSourceView | null {
  return [...sources].sort((a, b) => URGENCY.indexOf(a.syncStatus) - URGENCY.indexOf(b.syncStatus))[0] ?? null;
}

/** The earliest next sync of the subject's sources, or the first source's reason for having none. */
function nextSync(sources: LiveSourceView[]): string {
  const scheduled = sources.flatMap((source) => (source.schedule.kind === "scheduled" ? [source.schedule.at] : [])).sort((a, b) => a.getTime() - b.getTime());
  if (scheduled[0]) return scheduled[0].toISOString();
  return sources[0] ? scheduleText(sources[0].schedule) : "—";
}

export default async function LiveSubjectsPage({ params, searchParams }: { params: Promise<{ appId: string }>; searchParams: Promise<{ subject?: string | string[]; before?: string | string[] }> }) {
  const { appId } = await params;
  const { subject: sought, before } = await searchParams;
  const { application } = await requireApplication(appId);
  // Patients' live records: an account that must have a second factor enrols first.
  await requireEnrolment(`/dashboard/${application.id}/live`);
  const base = `/dashboard/${application.id}/live`;
  const wanted = typeof sought === "string" ? sought.trim() : "";
  if (wanted && (await liveSubjectView(application.id, wanted))) redirect(`${base}/${wanted}`);
  const subjects = await liveSubjectViews(application.id, { before: typeof before === "string" ? before : undefined });
  const last = subjects.length === LIVE_SUBJECTS_PAGE ? subjects[subjects.length - 1] : undefined;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Live subjects"
        description="Real patients who connected their health systems through your live Connect sessions: their consent and whether each source is syncing. Records are not shown here; your backend reads them through the API with a live key."
      />

      <Card>
        <CardHeader title="Find a subject" description="By the subject id your backend stored (the subject of GET /connect/sessions/{id})." />
        <CardBody>
          <form method="get" action={base} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <Field
              className="min-w-0 flex-1"
              label="Subject id"
              name="subject"
              defaultValue={wanted}
              placeholder="u_…"
              autoComplete="off"
              spellCheck={false}
              error={wanted ? `No live subject ${wanted} in this application.` : undefined}
            />
            <Button type="submit" variant="secondary">
              Open
            </Button>
          </form>
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Subjects" description={`Newest first, ${LIVE_SUBJECTS_PAGE} at a time. ${application.syncMode === "continuous" ? `This deployment syncs each source about every ${(syncIntervalMinutes() / 60).toFixed(1).replace(/\.0$/, "")} hours while consent is active.` : "One-time consent: each source is imported once."}`} />
        <CardBody className="space-y-4">
          {subjects.length === 0 ? (
            <EmptyState
              title={before ? "No older live subjects" : "No live subjects yet"}
              description={
                application.productionEnabled
                  ? "When a patient completes a Connect session opened with a live key, they appear here."
                  : "Live subjects come from Connect sessions opened with a live key, once the application is approved for production (Settings)."
              }
            />
          ) : (
            <Table caption="Live subjects">
              <thead>
                <tr>
                  <Th>Subject</Th>
                  <Th>Consent</Th>
                  <Th>Expires</Th>
                  <Th>Sources</Th>
                  <Th>Next sync</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {subjects.map((subject) => {
                  const attention = worst(subject.sources);
                  return (
                    <tr key={subject.id}>
                      <Td>
                        <Link className="font-mono text-xs text-teal-800 underline underline-offset-2" href={`${base}/${subject.id}`}>
                          {subject.id}
                        </Link>
                        <span className="block text-xs text-slate-600">since {subject.createdAt.toISOString().slice(0, 10)}</span>
                      </Td>
                      <Td>
                        <ReceiptStatusBadge status={subject.receipt?.status ?? null} />
                      </Td>
                      <Td className="whitespace-nowrap font-mono text-xs">{subject.receipt?.expiresAt.toISOString().slice(0, 10) ?? "—"}</Td>
                      <Td className="text-xs">
                        <span className="flex flex-wrap items-center gap-2">
                          {subject.sources.length === 1 ? "1 source" : `${subject.sources.length} sources`}
                          {attention ? <SyncStatusBadge status={attention.syncStatus} /> : null}
                        </span>
                      </Td>
                      <Td className="text-xs">{nextSync(subject.sources)}</Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          )}
          {last ? (
            <Link className={buttonClass("secondary", "sm")} href={`${base}?before=${last.id}`}>
              Older subjects
            </Link>
          ) : null}
        </CardBody>
      </Card>
    </div>
  );
}
