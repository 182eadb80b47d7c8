import type { Metadata } from "next";
import Link from "next/link";
import { AgentCredentials } from "@/components/dashboard/sandbox/agent-credentials";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { SourceFidelityReport } from "@/components/dashboard/sandbox/fidelity-report";
import { RecordsTable } from "@/components/dashboard/sandbox/records-table";
import { SandboxEvents } from "@/components/dashboard/sandbox/sandbox-events";
import { RetentionDetail } from "@/components/dashboard/retention-detail";
import { ReceiptStatusBadge, SimulationStateBadge, SyncStatusBadge } from "@/components/dashboard/sandbox/status-badges";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { activeCredentials } from "@/lib/agents";
import { CATEGORY_TEXT } from "@/lib/connect";
import { SyncHistoryCard } from "@/components/dashboard/sources/sync-history-card";
import { retentionState } from "@/lib/consent";
import { readSubjectRecords, requireApplication, sandboxSubjectView } from "@/lib/dashboard";
import { sourceImportHistory } from "@/lib/imports";
import { can } from "@/lib/team";
import { CATEGORIES, isCategory, type Category } from "@/lib/records";
import { CopyableValue } from "@/components/ui/copyable-value";
import { Detail } from "@/components/ui/detail";

export const metadata: Metadata = { title: "Synthetic subject · Sandbox" };

export default async function SandboxSubjectPage({ params, searchParams }: { params: Promise<{ appId: string; subject: string }>; searchParams: Promise<{ category?: string | string[] }> }) {
  const { appId, subject: subjectId } = await params;
  const { category: requested } = await searchParams;
  const access = await requireApplication(appId);
  const { application } = access;
  const base = `/dashboard/${application.id}/sandbox`;
  const back = (
    <Link href={base} className={buttonClass("secondary", "sm")}>
      Back to the sandbox
    </Link>
  );
  const subject = await sandboxSubjectView(application.id, subjectId);
  // Another application's subject is "not found", exactly like one that does not exist, with a 404 status.
  if (!subject) notFound();

  const counts = subject.recordCounts;
  const fallback: Category = CATEGORIES.find((category) => (counts[category] ?? 0) > 0) ?? CATEGORIES[0];
  const category: Category = typeof requested === "string" && isCategory(requested) ? requested : fallback;
  const page = (await readSubjectRecords(application.id, subject.id, category)) ?? { records: [], nextCursor: null };
  const receiptActive = subject.receipt?.status === "active";
  const credentials = await activeCredentials(access, subject.id);
  const histories = await sourceImportHistory(subject.sources.map((source) => source.id));
  const mayRerun = can(access.role, "application.manage");

  return (
    <div className="space-y-6">
      {/* State changes elsewhere too: the worker marks receipts expired, imports finish, a teammate acts. */}
      <AutoRefresh active />
      <PageHeader title="Synthetic subject" description={<CopyableValue value={subject.id} what="Subject id" />} actions={back} />

      <Card>
        <CardHeader title="Consent and sources" description={subject.scenarioTitle ? `Scenario: ${subject.scenarioTitle} (${subject.scenario})` : "Connected through the hosted Connect flow."} />
        <CardBody className="space-y-4">
          <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <Detail label="Receipt">
              <span className="flex flex-wrap items-center gap-2">
                <ReceiptStatusBadge status={subject.receipt?.status ?? null} />
                {subject.receipt ? <CopyableValue value={subject.receipt.id} what="Receipt id" /> : null}
              </span>
            </Detail>
            <Detail label="Shared categories">{subject.receipt?.categories.join(", ") || "—"}</Detail>
            <Detail label="Receipt expires">{subject.receipt?.expiresAt.toISOString() ?? "—"}</Detail>
            <RetentionDetail retention={subject.receipt ? retentionState(subject.receipt) : null} />
            <Detail label="Simulation">
              {subject.simulation ? (
                <span className="flex flex-wrap items-center gap-2">
                  <SimulationStateBadge state={subject.simulation.state} />
                  {subject.sessionId ? (
                    <Link className="text-teal-800 underline underline-offset-2" href={`${base}/sessions/${subject.sessionId}`}>
                      session
                    </Link>
                  ) : null}
                </span>
              ) : (
                "—"
              )}
            </Detail>
          </dl>
          <Table caption="Sources of the subject">
            <thead>
              <tr>
                <Th>Health system</Th>
                <Th>Status</Th>
                <Th>Phase</Th>
                <Th>Last synced</Th>
                <Th>Next sync</Th>
                <Th>Last error</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {subject.sources.map((source) => (
                <tr key={source.id}>
                  <Td>
                    <span className="font-medium">{source.providerName}</span>
                    <span className="block text-xs text-slate-600">{source.sourceKey ?? "source"}</span>
                  </Td>
                  <Td>
                    <SyncStatusBadge status={source.syncStatus} />
                  </Td>
                  <Td>
                    <span data-testid="source-phase">phase {source.phase}</span>
                  </Td>
                  <Td className="whitespace-nowrap font-mono text-xs">{source.lastSyncedAt?.toISOString() ?? "—"}</Td>
                  <Td className="text-xs">
                    {/* Live sources of continuous applications sync on a schedule; a sandbox source changes only when advanced. */}
                    {application.syncMode === "continuous" ? "When advanced (records.advance imports it at once)" : "None: one-time consent imports once"}
                  </Td>
                  <Td className="text-xs">{source.lastError ?? "—"}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </CardBody>
      </Card>

      <SyncHistoryCard applicationId={application.id} sources={subject.sources} histories={histories} mayRerun={mayRerun} />

      <Card>
        <CardHeader
          title="Import fidelity"
          description="What each source's latest import yielded and what its data did not: records by category, resources skipped by type and reason, warnings. The API's sources[].fidelity carries the same report."
        />
        <CardBody className="space-y-6">
          {subject.sources.length === 0 ? (
            <EmptyState title="No sources" description="The subject has no health system connected." />
          ) : (
            subject.sources.map((source) => <SourceFidelityReport key={source.id} providerName={source.providerName} report={subject.reports.get(source.id) ?? null} />)
          )}
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Agent credentials" description="Delegated credentials that may read this subject now: what each may read, why, and until when. Revoking one refuses its next request." />
        <CardBody>
          <AgentCredentials
            applicationId={application.id}
            credentials={credentials.map((credential) => ({ ...credential, categories: [...credential.categories], operations: [...credential.operations] }))}
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Sandbox events" description="Lifecycle controls, as POST /sandbox/subjects/{subject}/events applies them; the ones this scenario supports." />
        <CardBody>
          <SandboxEvents applicationId={application.id} subject={subject.id} controls={subject.controls} simulated={subject.createdBySimulation} consentActive={receiptActive} />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Records" description="What GET /users/{subject}/records/{category} returns with a sandbox key: codes with their displays, values with units and times exactly as the health system sent them." />
        <CardBody className="space-y-4">
          <nav aria-label="Record categories">
            <ul className="flex flex-wrap gap-1">
              {CATEGORIES.map((tab) => (
                <li key={tab}>
                  <Link
                    href={`?category=${tab}`}
                    aria-current={tab === category ? "page" : undefined}
                    className={`inline-flex items-center gap-1 rounded-md px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700 ${tab === category ? "bg-teal-800 text-white" : "text-slate-700 hover:bg-slate-100"}`}
                  >
                    {tab}
                    <span className={`rounded-full px-1.5 text-xs ${tab === category ? "bg-teal-900 text-white" : "bg-slate-100 text-slate-700"}`}>{counts[tab] ?? 0}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <h3 className="text-sm font-semibold text-slate-900">
            {CATEGORY_TEXT[category].label} <span className="font-mono font-normal text-slate-600">({category})</span>
          </h3>
          {!receiptActive && page.records.length > 0 ? (
            <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {subject.receipt ? `Consent is ${subject.receipt.status}` : "No consent receipt"}: the API no longer serves these records (reads answer 404 not_found). They are shown here because they are your sandbox&apos;s synthetic data.
            </p>
          ) : null}
          {page.records.length === 0 ? (
            <EmptyState title={`No ${category} records`} description="The health systems sent nothing in this category for this patient (yet). Advancing the records may add some." />
          ) : (
            <RecordsTable key={`${category}-${page.records.map((record) => record.recordId).join(",")}`} applicationId={application.id} subject={subject.id} category={category} initialRecords={page.records} initialCursor={page.nextCursor} />
          )}
        </CardBody>
      </Card>
    </div>
  );
}
