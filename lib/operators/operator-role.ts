import type { AuditActor } from "@/lib/audit";
import { operatorEmails } from "@/lib/config";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/team";

export type Operator = { id: string; email: string };

/** The operator as the audit trail names them. */
export function operatorActor(operator: Operator): AuditActor {
  return { type: "operator", id: operator.id, label: operator.email };
}

/**
 * The developer as an operator of this deployment, or null. Operators are the accounts `CHARTKEY_OPERATOR_EMAILS`
 * names; where the setting is empty, the deployment's first account (the earliest created) is the one operator, so
 * a fresh self-hosted install has someone who can add providers and approve production without a restart.
 */
export async function findOperator(developerId: string): Promise<Operator | null> {
  const developer = await db().developer.findUnique({ where: { id: developerId }, select: { id: true, email: true } });
  if (!developer) return null;
  const named = operatorEmails();
  if (named.length > 0) return named.includes(developer.email.toLowerCase()) ? developer : null;
  const first = await db().developer.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  return first?.id === developer.id ? developer : null;
}

/**
 * The operator, or "not found" for anyone else: the operator area and its actions answer a non-operator exactly as
 * a page that does not exist, so whether an account could reach them reveals nothing.
 */
export async function requireOperator(developerId: string): Promise<Operator> {
  const operator = await findOperator(developerId);
  if (!operator) throw new NotFoundError("The page");
  return operator;
}
