import { db, Prisma, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { Operator } from "./operator-role";

export type OperatorAction =
  | "production.approve"
  | "production.refuse"
  | "application.suspend"
  | "application.reinstate"
  | "provider.create"
  | "provider.update"
  | "provider.disable"
  | "provider.enable"
  | "provider.test";

export type AuditEntry = {
  id: string;
  operatorEmail: string;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown>;
  createdAt: Date;
};

/** Writes one audit entry in the transaction of the change it records, so neither exists without the other. */
export async function recordOperatorAction(
  tx: Tx,
  operator: Operator,
  entry: { action: OperatorAction; targetType: "application" | "production_request" | "provider"; targetId: string; detail?: Record<string, string | boolean | null> },
): Promise<void> {
  await tx.operatorAuditEntry.create({
    data: {
      id: newId("aud_"),
      operatorId: operator.id,
      operatorEmail: operator.email,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      detail: (entry.detail ?? {}) as Prisma.InputJsonObject,
    },
  });
}

/** The newest audit entries first (the operator page shows the latest `limit`). */
export async function listOperatorAudit(limit = 100): Promise<AuditEntry[]> {
  const rows = await db().operatorAuditEntry.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map((row) => ({ ...row, detail: (row.detail ?? {}) as Record<string, unknown> }));
}
