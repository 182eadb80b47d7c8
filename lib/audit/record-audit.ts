import { Prisma, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { currentAuditAddress } from "./audit-context";
import type { AuditAction } from "./schemas";

/** Who acted: a dashboard account (as a member or an operator), an API key, nobody known, or the platform itself. */
export type AuditActor =
  | { type: "developer" | "operator"; id: string; label?: string }
  | { type: "api_key"; id: string; label?: string }
  | { type: "anonymous"; label: string }
  | { type: "system"; label: string };

/** What an entry says changed: plain values only, never a secret (a secret change is recorded as `true`). */
export type AuditState = Record<string, string | number | boolean | null | string[] | Date>;

export type AuditRecord = {
  action: AuditAction;
  actor: AuditActor;
  /** The application the action concerns (its members see the entry); omit for deployment-wide actions. */
  applicationId?: string | null;
  targetType: string;
  targetId: string;
  before?: AuditState | null;
  after?: AuditState | null;
};

function json(state: AuditState | null | undefined): Prisma.InputJsonObject | undefined {
  if (!state) return undefined;
  return Object.fromEntries(Object.entries(state).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

/**
 * Appends one entry in the transaction of the change it records, so neither exists without the other. The
 * address is the one the request's entry point put on record (withAuditAddress); an account's label is its email
 * as it reads now, kept with the entry.
 */
export async function recordAudit(tx: Tx, record: AuditRecord): Promise<void> {
  const { actor } = record;
  const actorId = "id" in actor ? actor.id : null;
  let label = actor.label ?? null;
  if (label === null && (actor.type === "developer" || actor.type === "operator")) {
    label = (await tx.developer.findUnique({ where: { id: actor.id }, select: { email: true } }))?.email ?? null;
  } else if (label === null && actor.type === "api_key") {
    label = (await tx.apiKey.findUnique({ where: { id: actor.id }, select: { displayPrefix: true } }))?.displayPrefix ?? null;
  }
  await tx.auditEntry.create({
    data: {
      id: newId("aud_"),
      action: record.action,
      actorType: actor.type,
      actorId,
      actorLabel: label,
      address: currentAuditAddress(),
      applicationId: record.applicationId ?? null,
      targetType: record.targetType,
      targetId: record.targetId,
      before: json(record.before),
      after: json(record.after),
    },
  });
}

/** The actor for a change a signed-in member makes to their application. */
export function memberActor(access: { developerId: string }): AuditActor {
  return { type: "developer", id: access.developerId };
}
