import { listApplicationsFor, type AccessibleApplication, type ApplicationRole } from "@/lib/team";
import { db } from "@/lib/db";

export type ApplicationSummary = AccessibleApplication & { role: ApplicationRole; activeKeys: number };

/** The applications the developer is a member of, newest first, with their active key counts. */
export async function listMyApplications(developerId: string): Promise<ApplicationSummary[]> {
  const applications = await listApplicationsFor(developerId);
  const counts = await db().apiKey.groupBy({
    by: ["applicationId"],
    where: { applicationId: { in: applications.map((application) => application.id) }, revokedAt: null, conformanceRunId: null },
    _count: true,
  });
  const activeKeys = new Map(counts.map((row) => [row.applicationId, row._count]));
  return applications.map((application) => ({ ...application, activeKeys: activeKeys.get(application.id) ?? 0 }));
}
