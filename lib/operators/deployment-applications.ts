import { db } from "@/lib/db";
import { requireOperator } from "./operator-role";

export type DeploymentApplication = {
  id: string;
  name: string;
  status: "sandbox" | "active" | "suspended";
  productionEnabled: boolean;
  ownerEmail: string;
  createdAt: Date;
  request: { id: string; status: "pending" | "approved" | "refused"; description: string; redirectUrls: string[]; contactEmail: string; decisionReason: string | null; createdAt: Date } | null;
};

/**
 * Every application of the deployment with its newest production request, those waiting for a decision first
 * (oldest request first), then the rest newest first. Operators only.
 */
export async function listDeploymentApplications(operatorId: string): Promise<DeploymentApplication[]> {
  await requireOperator(operatorId);
  const rows = await db().application.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      name: true,
      status: true,
      productionEnabled: true,
      createdAt: true,
      developer: { select: { email: true } },
      productionRequests: {
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 1,
        select: { id: true, status: true, description: true, redirectUrls: true, contactEmail: true, decisionReason: true, createdAt: true },
      },
    },
  });
  const applications = rows.map(({ developer, productionRequests, ...application }) => ({ ...application, ownerEmail: developer.email, request: productionRequests[0] ?? null }));
  const pending = applications.filter((application) => application.request?.status === "pending").sort((a, b) => a.request!.createdAt.getTime() - b.request!.createdAt.getTime());
  return [...pending, ...applications.filter((application) => application.request?.status !== "pending")];
}
