import { db } from "@/lib/db";

export type ApplicationOverview = {
  activeKeys: { sandbox: number; live: number };
  sharingSubjects: { sandbox: number; live: number };
  requestsLastDay: number;
  /** Getting-started steps once done stay done: a revoked key or an ended consent does not untick them. */
  stepsDone: { sandboxKey: boolean; simulatedPatient: boolean };
};

/** The counts the overview's getting-started steps and summary read, for one application. */
export async function applicationOverview(applicationId: string, now = new Date()): Promise<ApplicationOverview> {
  const [keys, receipts, requestsLastDay, anySandboxKey, anySandboxReceipt] = await Promise.all([
    db().apiKey.groupBy({ by: ["environment"], where: { applicationId, revokedAt: null, conformanceRunId: null }, _count: true }),
    db().consentReceipt.groupBy({ by: ["environment"], where: { applicationId, status: "active", expiresAt: { gt: now } }, _count: true }),
    db().requestLog.count({ where: { applicationId, createdAt: { gte: new Date(now.getTime() - 86_400_000) } } }),
    db().apiKey.findFirst({ where: { applicationId, environment: "sandbox", conformanceRunId: null }, select: { id: true } }),
    db().consentReceipt.findFirst({ where: { applicationId, environment: "sandbox" }, select: { id: true } }),
  ]);
  const byEnvironment = (rows: { environment: "sandbox" | "live"; _count: number }[]) => ({
    sandbox: rows.find((row) => row.environment === "sandbox")?._count ?? 0,
    live: rows.find((row) => row.environment === "live")?._count ?? 0,
  });
  return {
    activeKeys: byEnvironment(keys),
    sharingSubjects: byEnvironment(receipts),
    requestsLastDay,
    stepsDone: { sandboxKey: anySandboxKey !== null, simulatedPatient: anySandboxReceipt !== null },
  };
}
