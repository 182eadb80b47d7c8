import type { Metadata } from "next";
import Link from "next/link";
import { ApplicationStatusBadge } from "@/components/dashboard/application-status";
import { CreateApplicationButton } from "@/components/dashboard/create-application";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { listMyApplications, requireDeveloper } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Applications" };

export default async function ApplicationsPage() {
  const developer = await requireDeveloper();
  const applications = await listMyApplications(developer.id);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Applications"
        description="Each application has its own keys, webhooks, patients and consent receipts. Nothing is shared between them."
        actions={applications.length > 0 ? <CreateApplicationButton /> : undefined}
      />
      {applications.length === 0 ? (
        <EmptyState
          title="No applications yet"
          description="Create one to get a sandbox key, simulate a patient and receive your first webhook in a few minutes."
          action={<CreateApplicationButton label="Create your first application" />}
        />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {applications.map((application) => (
            <li key={application.id}>
              <Link
                href={`/dashboard/${application.id}`}
                className="block h-full rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-teal-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700"
              >
                <span className="block font-semibold text-slate-900">{application.name}</span>
                <span className="mt-2 flex flex-wrap gap-2">
                  <ApplicationStatusBadge status={application.status} productionEnabled={application.productionEnabled} />
                  <Badge>{application.role === "owner" ? "Owner" : "Member"}</Badge>
                </span>
                <span className="mt-3 block text-sm text-slate-600">
                  {application.activeKeys} active {application.activeKeys === 1 ? "key" : "keys"} · created{" "}
                  {application.createdAt.toISOString().slice(0, 10)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
