import { db } from "@/lib/db";
import type { ApplicationRole } from "./application-context";

export type ApplicationSummary = {
  id: string;
  name: string;
  status: "sandbox" | "active" | "suspended";
  productionEnabled: boolean;
  role: ApplicationRole;
  activeKeys: number;
  createdAt: Date;
};

/** The applications the developer works on, newest first. */
export async function listMyApplications(developerId: string): Promise<ApplicationSummary[]> {
  const applications = await db().application.findMany({
    where: { developerId },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      status: true,
      productionEnabled: true,
      createdAt: true,
      _count: { select: { apiKeys: { where: { revokedAt: null, conformanceRunId: null } } } },
    },
  });
  return applications.map(({ _count, ...application }) => ({ ...application, role: "owner" as const, activeKeys: _count.apiKeys }));
}
