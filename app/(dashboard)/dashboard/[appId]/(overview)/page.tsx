import { CheckCircle2, Circle } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { applicationOverview, requireApplication } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Overview" };

function Step({ done, title, href, action, children }: { done: boolean; title: string; href: string; action: string; children: React.ReactNode }) {
  const Icon = done ? CheckCircle2 : Circle;
  return (
    <li className="flex gap-3 py-3">
      <Icon aria-hidden="true" className={`mt-0.5 h-5 w-5 shrink-0 ${done ? "text-emerald-700" : "text-slate-400"}`} />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900">
          {title} <span className="sr-only">{done ? "(done)" : "(to do)"}</span>
        </p>
        <p className="text-sm text-slate-600">{children}</p>
      </div>
      <Link href={href} className="shrink-0 self-center text-sm font-medium text-teal-800 underline underline-offset-2">
        {action}
      </Link>
    </li>
  );
}

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

export default async function ApplicationOverviewPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const { application } = await requireApplication(appId);
  const overview = await applicationOverview(application.id);
  const base = `/dashboard/${application.id}`;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Overview</h1>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat label="Active API keys" value={overview.activeKeys.sandbox + overview.activeKeys.live} />
        <Stat label="Patients sharing (sandbox)" value={overview.sharingSubjects.sandbox} />
        <Stat label="API requests, last 24 hours" value={overview.requestsLastDay} />
      </dl>
      <Card>
        <CardHeader title="Get started" description="Three steps from a new application to a patient's records in your code." />
        <CardBody>
          <ol className="divide-y divide-slate-100">
            <Step done={overview.stepsDone.sandboxKey} title="Create a sandbox API key" href={`${base}/keys`} action="API keys">
              Keys start with <code>ck_test_</code> and reach only synthetic patients.
            </Step>
            <Step done={application.webhookUrl !== null} title="Receive webhooks" href={`${base}/webhooks`} action="Webhooks">
              Set your endpoint and send a signed test event.
            </Step>
            <Step done={overview.stepsDone.simulatedPatient} title="Simulate a patient" href={`${base}/sandbox`} action="Sandbox">
              Run a Connect session with a synthetic patient and browse the imported records.
            </Step>
          </ol>
        </CardBody>
      </Card>
    </div>
  );
}
