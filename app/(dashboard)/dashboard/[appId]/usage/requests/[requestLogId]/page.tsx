import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody } from "@/components/ui/card";
import { CopyableValue } from "@/components/ui/copyable-value";
import { PageHeader } from "@/components/ui/page-header";
import { requireApplication } from "@/lib/dashboard";
import { requestDetail } from "@/lib/usage";

export const metadata: Metadata = { title: "Request · Usage" };

function Field({ label, children, wide = false }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-1 text-slate-900">{children}</dd>
    </div>
  );
}

export default async function RequestDetailPage({ params }: { params: Promise<{ appId: string; requestLogId: string }> }) {
  const { appId, requestLogId } = await params;
  const access = await requireApplication(appId);
  // Another application's row is "not found", exactly like one that does not exist.
  const request = await requestDetail({ applicationId: access.application.id, id: requestLogId });
  if (!request) notFound();
  const tone = request.status >= 500 ? "danger" : request.status >= 400 ? "warning" : "success";

  return (
    <div className="space-y-6">
      <Link href={`/dashboard/${access.application.id}/usage`} className="text-sm font-medium text-teal-800 underline underline-offset-2">
        ← Usage
      </Link>
      <PageHeader
        title={`${request.method} ${request.route.replace(/^[A-Z]+ /, "")}`}
        description={`Answered ${request.status} in ${request.latencyMs} ms at ${request.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC.`}
      />
      <Card>
        <CardBody>
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <Field label="Status">
              <Badge tone={tone}>{request.status}</Badge>
              {request.errorCode ? <code className="ml-2 font-mono text-xs">{request.errorCode}</code> : null}
            </Field>
            <Field label="Latency">{request.latencyMs} ms</Field>
            <Field label="Path" wide>
              {request.path ? <CopyableValue value={request.path} what="Path" /> : <span className="text-slate-600">Not recorded for requests this old</span>}
            </Field>
            <Field label="Request id" wide>
              <CopyableValue value={request.requestId} what="Request id" />
            </Field>
            <Field label="Key">
              {request.key ? (
                <>
                  {request.key.name} <code className="font-mono text-xs">{request.key.displayPrefix}…</code>
                </>
              ) : (
                "—"
              )}
            </Field>
            <Field label="Environment">{request.environment ?? "—"}</Field>
            <Field label="Subject" wide>
              {request.subjectId ? <CopyableValue value={request.subjectId} what="Subject id" /> : "—"}
            </Field>
            {request.credential ? (
              <>
                <Field label="Delegated credential" wide>
                  <CopyableValue value={request.credential.id} what="Credential id" />
                </Field>
                <Field label="Purpose it was issued for" wide>
                  {request.credential.purpose ?? "—"}
                </Field>
              </>
            ) : null}
          </dl>
        </CardBody>
      </Card>
    </div>
  );
}
