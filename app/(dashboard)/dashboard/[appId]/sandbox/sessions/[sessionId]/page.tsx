import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SessionProgress } from "@/components/dashboard/sandbox/session-progress";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { dashboardOrigin, readSandboxSession, requireApplication, sandboxScenarios } from "@/lib/dashboard";
import { ApiError } from "@/lib/http";
import { CopyableValue } from "@/components/ui/copyable-value";

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
  const access = await requireApplication(appId);
  const { application } = access;
  const base = `/dashboard/${application.id}/sandbox`;
  const session = await sessionOrNull(access, sessionId, await dashboardOrigin());
  const back = (
    <Link href={base} className={buttonClass("secondary", "sm")}>
      Back to the sandbox
    </Link>
  );
  // Another application's session is "not found", exactly like one that does not exist, with a 404 status.
  if (!session) notFound();

  return (
    <div className="space-y-6">
      <PageHeader title="Connect session" description={<CopyableValue value={session.id} what="Session id" />} actions={back} />
      <SessionProgress applicationId={application.id} initial={session} scenarios={sandboxScenarios()} />
    </div>
  );
}
