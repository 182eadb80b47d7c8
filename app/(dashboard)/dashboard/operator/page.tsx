import type { Metadata } from "next";
import Link from "next/link";
import { ApplicationStatusBadge } from "@/components/dashboard/application-status";
import { ProductionDecision, SuspensionControl } from "@/components/dashboard/operator/application-decisions";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { requireOperatorPage } from "@/lib/dashboard";
import { listAuditEntries } from "@/lib/audit";
import { describeLiveWebhook, listDeploymentApplications, type DeploymentApplication } from "@/lib/operators";

export const metadata: Metadata = { title: "Operator" };

const REQUEST_TONE = { pending: "info", approved: "success", refused: "warning" } as const;
const REQUEST_LABEL = { pending: "Production requested", approved: "Production approved", refused: "Production refused" } as const;

function ApplicationCard({ application }: { application: DeploymentApplication }) {
  const { request } = application;
  const headingId = `operator-app-${application.id}`;
  return (
    <li>
      <Card>
        <div role="group" aria-labelledby={headingId}>
          <CardHeader
            headingId={headingId}
            title={application.name}
            description={
              <>
                {application.ownerEmail} · {application.id} · created {application.createdAt.toISOString().slice(0, 10)}
              </>
            }
            actions={
              <>
                <ApplicationStatusBadge status={application.status} productionEnabled={application.productionEnabled} />
                {request ? <Badge tone={REQUEST_TONE[request.status]}>{REQUEST_LABEL[request.status]}</Badge> : null}
              </>
            }
          />
          <CardBody className="space-y-4 text-sm text-slate-800">
            {request ? (
              <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[10rem_1fr]">
                <dt className="font-medium text-slate-600">What it does</dt>
                <dd className="whitespace-pre-wrap break-words">{request.description}</dd>
                <dt className="font-medium text-slate-600">Redirect URLs</dt>
                <dd className="break-all font-mono text-xs">{request.redirectUrls.join("\n")}</dd>
                <dt className="font-medium text-slate-600">Contact</dt>
                <dd className="break-all">{request.contactEmail}</dd>
                {application.webhook ? (
                  <>
                    <dt className="font-medium text-slate-600">Webhook URL</dt>
                    <dd className={`break-all ${application.webhook.verdict === "refused" ? "font-medium text-red-800" : ""}`}>{describeLiveWebhook(application.webhook)}</dd>
                  </>
                ) : null}
                <dt className="font-medium text-slate-600">Requested</dt>
                <dd>{request.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</dd>
                {request.decisionReason ? (
                  <>
                    <dt className="font-medium text-slate-600">{request.status === "refused" ? "Reason" : "Note"}</dt>
                    <dd className="whitespace-pre-wrap break-words">{request.decisionReason}</dd>
                  </>
                ) : null}
              </dl>
            ) : (
              <p className="text-slate-600">No production request.</p>
            )}
            {request?.status === "pending" && application.status !== "suspended" ? (
              <ProductionDecision requestId={request.id} applicationName={application.name} />
            ) : null}
            <SuspensionControl applicationId={application.id} applicationName={application.name} suspended={application.status === "suspended"} />
          </CardBody>
        </div>
      </Card>
    </li>
  );
}

export default async function OperatorPage() {
  const operator = await requireOperatorPage();
  const [applications, audit] = await Promise.all([listDeploymentApplications(operator.id), listAuditEntries({ deployment: true }, { actorType: "operator" }, { limit: 100 })]);
  return (
    <div className="space-y-8">
      <PageHeader
        title="Operator"
        description="This deployment's applications and their production requests, suspensions, and the log of every operator action. Only operators see this page."
        actions={
          <>
            <Link href="/dashboard/operator/providers" className={buttonClass("secondary")}>
              Provider directory
            </Link>
            <Link href="/dashboard/operator/audit" className={buttonClass("secondary")}>
              Audit trail
            </Link>
          </>
        }
      />
      <section aria-labelledby="operator-applications" className="space-y-3">
        <h2 id="operator-applications" className="text-lg font-semibold text-slate-900">
          Applications
        </h2>
        {applications.length === 0 ? (
          <EmptyState title="No applications yet" description="Applications appear here as developers create them; requests for production wait at the top." />
        ) : (
          <ul className="space-y-4">
            {applications.map((application) => (
              <ApplicationCard key={application.id} application={application} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="operator-audit" className="space-y-3">
        <h2 id="operator-audit" className="text-lg font-semibold text-slate-900">
          Audit log
        </h2>
        <p className="text-sm text-slate-600">
          The latest operator actions. The <Link href="/dashboard/operator/audit" className="font-medium text-teal-800 underline underline-offset-2">audit trail</Link> holds every security-relevant action on the deployment, with filters and exports.
        </p>
        {audit.entries.length === 0 ? (
          <p className="text-sm text-slate-600">No operator actions yet.</p>
        ) : (
          <Card>
            <Table caption="Operator actions, newest first">
              <thead>
                <tr>
                  <Th>When (UTC)</Th>
                  <Th>Operator</Th>
                  <Th>Action</Th>
                  <Th>Application</Th>
                  <Th>Target</Th>
                  <Th>Details</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {audit.entries.map((entry) => (
                  <tr key={entry.id}>
                    <Td className="whitespace-nowrap">{entry.createdAt.toISOString().slice(0, 19).replace("T", " ")}</Td>
                    <Td>{entry.actorLabel}</Td>
                    <Td className="font-mono text-xs">{entry.action}</Td>
                    <Td className="font-mono text-xs">{entry.applicationId ?? "—"}</Td>
                    <Td className="font-mono text-xs">{entry.targetId}</Td>
                    <Td className="text-xs">
                      {Object.entries(entry.after ?? {})
                        .filter(([, value]) => value !== null)
                        .map(([key, value]) => `${key}: ${String(value)}`)
                        .join(" · ")}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>
        )}
      </section>
    </div>
  );
}
