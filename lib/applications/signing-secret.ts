import { memberActor, recordAudit } from "@/lib/audit";
import { decryptSecret, encryptSecret } from "@/lib/auth";
import { db, withTransaction } from "@/lib/db";
import { NotFoundError, requirePermission, type ApplicationAccess } from "@/lib/team";
import { newSigningSecret } from "./create-application";

/** How long the secret before a rotation keeps signing deliveries (alongside the new one). */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Replaces the application's `whsec_` signing secret. The old one is kept (encrypted) and deliveries are signed
 * with both until `previousExpiresAt` (now + 24 h), so receivers can switch at their own pace. Rotating again
 * within the window drops the older secret: only the one being replaced keeps verifying. Returns the new secret.
 */
export async function rotateSigningSecret(applicationId: string, now = new Date(), developerId?: string): Promise<{ secret: string; previousExpiresAt: Date }> {
  const secret = newSigningSecret();
  const previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_LIFETIME_MS);
  await withTransaction("ReadCommitted", async (tx) => {
    const [current] = await tx.$queryRaw<Array<{ signingSecretEncrypted: string }>>`
      SELECT "signingSecretEncrypted" FROM "Application" WHERE "id" = ${applicationId} FOR UPDATE`;
    if (!current) throw new NotFoundError("The application");
    await tx.application.update({
      where: { id: applicationId },
      data: { signingSecretEncrypted: encryptSecret(secret), previousSigningSecretEncrypted: current.signingSecretEncrypted, previousSigningSecretExpiresAt: previousExpiresAt },
    });
    const actor = developerId ? memberActor({ developerId }) : ({ type: "system", label: "signing secret rotation" } as const);
    await recordAudit(tx, { action: "webhook.secret_rotate", actor, applicationId, targetType: "application", targetId: applicationId, after: { signingSecretChanged: true, previousExpiresAt } });
  });
  return { secret, previousExpiresAt };
}

/** Rotates the caller's application's signing secret (owners only). */
export async function rotateSigningSecretFor(access: ApplicationAccess, now = new Date()): Promise<{ secret: string; previousExpiresAt: Date }> {
  requirePermission(access, "webhooks.rotate_secret");
  return rotateSigningSecret(access.application.id, now, access.developerId);
}

/**
 * The signing secret in clear, for the owner to copy, with when the previous one stops verifying (null when no
 * rotation is in its window).
 */
export async function revealSigningSecret(access: ApplicationAccess, now = new Date()): Promise<{ secret: string; previousExpiresAt: Date | null }> {
  requirePermission(access, "webhooks.reveal_secret");
  const row = await db().application.findUnique({
    where: { id: access.application.id },
    select: { signingSecretEncrypted: true, previousSigningSecretExpiresAt: true },
  });
  if (!row) throw new NotFoundError("The application");
  const expires = row.previousSigningSecretExpiresAt;
  const secret = decryptSecret(row.signingSecretEncrypted);
  // Who saw the secret, and from where, is on the audit trail (the secret itself never is).
  await recordAudit(db(), { action: "webhook.secret_reveal", actor: memberActor(access), applicationId: access.application.id, targetType: "application", targetId: access.application.id });
  return { secret, previousExpiresAt: expires && expires > now ? expires : null };
}

/**
 * When the secret replaced by the last rotation stops verifying, or null when no rotation is in its 24-hour window.
 * Needs no permission (it reveals no secret): members see it too, so they know their receiver has until then.
 */
export async function signingSecretWindow(applicationId: string, now = new Date()): Promise<Date | null> {
  const row = await db().application.findUnique({ where: { id: applicationId }, select: { previousSigningSecretExpiresAt: true } });
  const expires = row?.previousSigningSecretExpiresAt ?? null;
  return expires && expires > now ? expires : null;
}
