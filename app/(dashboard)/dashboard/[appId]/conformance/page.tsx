import type { Metadata } from "next";
import { ConformanceRules } from "@/components/conformance/conformance-rules";
import { ConformancePanel } from "@/components/dashboard/conformance/conformance-panel";
import { verdictText } from "@/components/conformance/report-view";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { Td } from "@/components/ui/table";
import { conformanceScenarios, dashboardOrigin, dashboardRuns, requireApplication } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Conformance" };

const when = (iso: string) => iso.slice(0, 16).replace("T", " ") + " UTC";

export default async function ConformancePage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const { application } = await requireApplication(appId);
  const runs = await dashboardRuns(application.id, await dashboardOrigin());

  return (
    <div className="space-y-6">
      <PageHeader
        title="Conformance"
        description="Grade your integration before go-live: a run completes a Connect session, forces rate limits, revokes consent and probes your webhook receiver, then gives a verdict you can share with a health system or a reviewer."
      />
      {application.status !== "sandbox" ? (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This application is live: conformance runs are for applications still in the sandbox (the API answers 409 app_not_sandbox).
        </p>
      ) : null}
      <ConformancePanel applicationId={application.id} scenarios={conformanceScenarios()} continuousAllowed={application.syncMode === "continuous"} latest={runs[0] ?? null} />
      <Card>
        <CardHeader title="How runs are graded" description="What each phase does and when it ends, and the rule behind every check, before you start a run." />
        <CardBody>
          <ConformanceRules />
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="History" description="Every run of this application, newest first; reports are kept 90 days." />
        <CardBody>
          <DataTable
            caption="Conformance runs"
            columns={["Started", "Scenario", "Result", "Checks", "Report"]}
            rows={runs}
            empty={{ title: "No runs yet", description: "Start a run above; it appears here with its verdict and report link." }}
          >
            {(run) => {
              const verdict = verdictText(run);
              const count = (status: string) => run.checks.filter((check) => check.status === status).length;
              return (
                <tr key={run.id}>
                  <Td className="whitespace-nowrap text-xs">
                    {when(run.createdAt)}
                    <span className="block font-mono text-slate-600">{run.id}</span>
                  </Td>
                  <Td className="text-xs">
                    {run.scenario}
                    <span className="block text-slate-600">{run.sync_mode}</span>
                  </Td>
                  <Td>
                    <Badge tone={verdict.tone}>{verdict.label}</Badge>
                  </Td>
                  <Td className="whitespace-nowrap text-xs">
                    {count("passed")} passed · {count("failed")} failed · {count("inconclusive")} inconclusive
                  </Td>
                  <Td>
                    <div className="flex flex-wrap items-center gap-2">
                      <a href={run.links.reportPage} className="text-sm font-medium text-teal-800 underline underline-offset-2">
                        Open report<span className="sr-only"> of {run.id}</span>
                      </a>
                      <CopyButton value={run.links.reportPage} what="Report link" label="Copy link" />
                    </div>
                  </Td>
                </tr>
              );
            }}
          </DataTable>
        </CardBody>
      </Card>
    </div>
  );
}
