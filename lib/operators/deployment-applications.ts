import { db } from "@/lib/db";
import { checkLiveWebhook, type LiveWebhookCheck } from "./live-webhook-check";
import { requireOperator } from "./operator-role";

export type DeploymentApplication = {
  id: string;
  name: string;
  status: "sandbox" | "active" | "suspended";
  productionEnabled: boolean;
  ownerEmail: string;
  createdAt: Date;
  request: { id: string; status: "pending" | "approved" | "refused"; description: string; redirectUrls: string[]; contactEmail: string; decisionReason: string | null; createdAt: Date } | null;
  /** While a request waits: the webhook URL as it is now and the live rules' verdict on it (approval checks it again). */
  webhook: LiveWebhookCheck | null;
};

/**
 * Every application of the deployment with its newest production request, those waiting for a decision first
 * (oldest request first), then the rest newest first; a waiting one with its webhook URL judged by the live rules
 * (names resolved at once, each within 3 seconds). Operators only.
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
      webhookUrl: true,
      developer: { select: { email: true } },
      productionRequests: {
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 1,
        select: { id: true, status: true, description: true, redirectUrls: true, contactEmail: true, decisionReason: true, createdAt: true },
      },
    },
  });
  const applications = await Promise.all(
    rows.map(async ({ developer, productionRequests, webhookUrl, ...application }) => {
      const request = productionRequests[0] ?? null;
      return { ...application, ownerEmail: developer.email, request, webhook: request?.status === "pending" ? await checkLiveWebhook(webhookUrl) : null };
    }),
  );
  const pending = applications.filter((application) => application.request?.status === "pending").sort((a, b) => a.request!.createdAt.getTime() - b.request!.createdAt.getTime());
  return [...pending, ...applications.filter((application) => application.request?.status !== "pending")];
}
