import type { Metadata } from "next";
import Link from "next/link";
import { SessionProgress } from "@/components/dashboard/sandbox/session-progress";
import { SimulateForm } from "@/components/dashboard/sandbox/simulate-form";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { readSandboxSession, requestOrigin, requireApplication, sandboxScenarios } from "@/lib/dashboard";
import { ApiError } from "@/lib/http";

export const metadata: Metadata = { title: "Connect session · Sandbox" };

async function sessionOrNull(...args: Parameters<typeof readSandboxSession>) {
  try {
    return await readSandboxSession(...args);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return null;
    throw error;
  }
}

export default async function SandboxSessionPage({ params }: { params: Promise<{ appId: string; sessionId: string }> }) {
  const { appId, sessionId } = await params;
  const { application } = await requireApplication(appId);
  const base = `/dashboard/${application.id}/sandbox`;
  const session = await sessionOrNull(application, sessionId, await requestOrigin());
  const back = (
    <Link href={base} className={buttonClass("secondary", "sm")}>
      Back to the sandbox
    </Link>
  );
  if (!session) return <EmptyState title="Session not found" description="This application's sandbox has no Connect session with that id." action={back} />;

  const simulatable = session.status === "pending" && !session.simulation;
  return (
    <div className="space-y-6">
      <PageHeader title="Connect session" description={<span className="font-mono">{session.id}</span>} actions={back} />
      {simulatable ? (
        <Card>
          <CardHeader title="Waiting for the patient" description="Open the hosted flow to connect as a patient, or let a scenario's synthetic patient complete it." />
          <CardBody className="space-y-4">
            <CodeBlock code={session.connectUrl} what="Connect link" label={`Hosted Connect link (expires ${session.expiresAt})`} />
            <a href={session.connectUrl} target="_blank" rel="noopener noreferrer" className={buttonClass("primary", "sm")}>
              Open the hosted flow<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <h3 className="pt-2 text-sm font-semibold text-slate-900">Or simulate it</h3>
            <SimulateForm applicationId={application.id} scenarios={sandboxScenarios()} sessionId={session.id} />
          </CardBody>
        </Card>
      ) : null}
      <SessionProgress applicationId={application.id} initial={session} />
    </div>
  );
}
