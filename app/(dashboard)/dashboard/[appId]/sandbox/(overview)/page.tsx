import type { Metadata } from "next";
import Link from "next/link";
import { CreateSessionForm } from "@/components/dashboard/sandbox/create-session-form";
import { SimulateForm } from "@/components/dashboard/sandbox/simulate-form";
import { ReceiptStatusBadge, SessionStatusBadge, SimulationStateBadge, SyncStatusBadge } from "@/components/dashboard/sandbox/status-badges";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { Td } from "@/components/ui/table";
import { CATEGORY_TEXT } from "@/lib/connect";
import { dashboardOrigin, listSandboxSessions, requireApplication, sandboxScenarios, sandboxSubjectViews } from "@/lib/dashboard";
import { CATEGORIES } from "@/lib/records";

export const metadata: Metadata = { title: "Sandbox" };

const day = (date: Date) => date.toISOString().slice(0, 10);

export default async function SandboxPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const { application } = await requireApplication(appId);
  const [subjects, sessions] = await Promise.all([sandboxSubjectViews(application.id, { limit: 50 }), listSandboxSessions(application.id, await dashboardOrigin())]);
  const scenarios = sandboxScenarios();
  const base = `/dashboard/${application.id}/sandbox`;
  const categories = CATEGORIES.filter((category) => application.categoryAllowlist.includes(category)).map((category) => ({
    id: category,
    description: CATEGORY_TEXT[category].detail,
  }));

  return (
    <div className="space-y-6">
      <PageHeader
        title="Sandbox"
        description="Synthetic patients for building against the API: simulate a scenario, walk the hosted Connect flow, trigger lifecycle events and browse the imported records. Nothing here touches real patient data."
      />

      <Card>
        <CardHeader
          title="Simulate a patient"
          description="A synthetic patient signs in at the scenario's health systems and consents, exactly as POST /connect/sessions/{id}/simulate does, then the import runs."
        />
        <CardBody>
          <SimulateForm applicationId={application.id} scenarios={scenarios} />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Synthetic subjects" description="Patients your simulations created (purged 7 days later) or who connected through the hosted flow, with their consent receipt and each source's sync state." />
        <CardBody>
          <DataTable
            caption="Synthetic subjects"
            columns={["Subject", "Receipt", "Categories", "Expires", "Sources", "Records"]}
            rows={subjects}
            empty={{ title: "No synthetic subjects yet", description: "Simulate a scenario above (or complete a Connect session in the hosted flow) and the patient it creates appears here." }}
          >
            {(subject) => (
              <tr key={subject.id}>
                <Td>
                  <Link href={`${base}/subjects/${subject.id}`} className="font-mono text-sm font-medium text-teal-800 underline underline-offset-2">
                    {subject.id}
                  </Link>
                  <span className="block text-xs text-slate-600">{subject.scenarioTitle ?? (subject.createdBySimulation ? subject.scenario : "Hosted Connect flow")}</span>
                </Td>
                <Td>
                  <ReceiptStatusBadge status={subject.receipt?.status ?? null} />
                </Td>
                <Td className="min-w-40 text-xs">{subject.receipt?.categories.join(", ") ?? "—"}</Td>
                <Td className="whitespace-nowrap text-xs">{subject.receipt ? day(subject.receipt.expiresAt) : "—"}</Td>
                <Td>
                  <ul className="space-y-1">
                    {subject.sources.map((source) => (
                      <li key={source.id} className="flex flex-wrap items-center gap-1 text-xs">
                        <span>{source.providerName}</span>
                        <SyncStatusBadge status={source.syncStatus} />
                        {source.lastError ? <span className="text-red-800">{source.lastError}</span> : null}
                      </li>
                    ))}
                    {subject.sources.length === 0 ? <li className="text-xs text-slate-600">none connected</li> : null}
                  </ul>
                </Td>
                <Td className="whitespace-nowrap">{subject.recordTotal} records</Td>
              </tr>
            )}
          </DataTable>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="Create a Connect session"
          description="A pending session whose hosted link a patient opens, as POST /connect/sessions creates one. Open it to walk the real flow with a synthetic health system sign-in, or simulate it."
        />
        <CardBody>
          <CreateSessionForm applicationId={application.id} categories={categories} />
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Recent Connect sessions" description="The latest 20 sandbox sessions of this application." />
        <CardBody>
          <DataTable
            caption="Recent Connect sessions"
            columns={["Session", "Status", "Simulation", "Categories", "Created"]}
            rows={sessions}
            empty={{ title: "No sessions yet", description: "Create a Connect session or simulate a scenario; each session appears here with its live state." }}
          >
            {(session) => (
              <tr key={session.id}>
                <Td>
                  <Link href={`${base}/sessions/${session.id}`} className="font-mono text-sm font-medium text-teal-800 underline underline-offset-2">
                    {session.id}
                  </Link>
                  {session.externalUserId ? <span className="block text-xs text-slate-600">user {session.externalUserId}</span> : null}
                </Td>
                <Td>
                  <SessionStatusBadge status={session.status} />
                </Td>
                <Td>
                  {session.simulation ? (
                    <span className="flex flex-wrap items-center gap-1 text-xs">
                      <SimulationStateBadge state={session.simulation.state} />
                      {session.simulation.scenario}
                    </span>
                  ) : (
                    <span className="text-xs text-slate-600">—</span>
                  )}
                </Td>
                <Td className="min-w-40 text-xs">{session.categories.join(", ")}</Td>
                <Td className="whitespace-nowrap font-mono text-xs">{session.createdAt.replace("T", " ").slice(0, 19)}</Td>
              </tr>
            )}
          </DataTable>
        </CardBody>
      </Card>
    </div>
  );
}
