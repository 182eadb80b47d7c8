import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/lib/sha256";
import { memberActor, recordAudit } from "@/lib/audit";
import { db, withTransaction } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { ApplicationAccess } from "./access";
import { NotFoundError, TeamError } from "./errors";
import { requirePermission, type ApplicationRole } from "./permissions";
import { invitationInputSchema, invitationTokenSchema } from "./schemas";

export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

const invitationFields = {
  id: true,
  applicationId: true,
  email: true,
  role: true,
  invitedById: true,
  createdAt: true,
  expiresAt: true,
  acceptedAt: true,
  revokedAt: true,
} as const;

export type Invitation = {
  id: string;
  applicationId: string;
  email: string;
  role: ApplicationRole;
  invitedById: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
};

function hashToken(token: string): string {
  return sha256Hex(token);
}

export function invitationStatus(invitation: Invitation, now = new Date()): InvitationStatus {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.revokedAt) return "revoked";
  return invitation.expiresAt <= now ? "expired" : "pending";
}

/** The path of an invitation's link: emailed to the invited address (./invitation-email.ts) and shown once to copy. */
export function invitationPath(token: string): string {
  return `/invitations/${token}`;
}

/**
 * Invites an email address to the application. The inviter must be an owner (checked here as well as by the
 * caller). The token is returned once; only its SHA-256 hash is stored. Lasts 7 days.
 */
export async function createInvitation(
  input: { applicationId: string; invitedById: string; email: string; role: ApplicationRole },
  now = new Date(),
): Promise<{ invitation: Invitation; token: string; path: string }> {
  const { email, role } = invitationInputSchema.parse({ email: input.email, role: input.role });
  return withTransaction("ReadCommitted", async (tx) => {
    const inviter = await tx.applicationMember.findUnique({
      where: { applicationId_developerId: { applicationId: input.applicationId, developerId: input.invitedById } },
      select: { role: true },
    });
    if (!inviter) throw new NotFoundError("The application");
    requirePermission(inviter, "team.manage");
    const existing = await tx.applicationMember.findFirst({
      where: { applicationId: input.applicationId, developer: { email } },
      select: { developerId: true },
    });
    if (existing) throw new TeamError("already_member", `${email} is already a member of this application.`);
    const token = randomBytes(32).toString("base64url");
    const invitation = await tx.invitation.create({
      data: {
        id: newId("inv_"),
        applicationId: input.applicationId,
        email,
        role,
        tokenHash: hashToken(token),
        invitedById: input.invitedById,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
      },
      select: invitationFields,
    });
    await recordAudit(tx, { action: "team.invite", actor: memberActor({ developerId: input.invitedById }), applicationId: input.applicationId, targetType: "invitation", targetId: invitation.id, after: { email, role, expiresAt: invitation.expiresAt } });
    return { invitation, token, path: invitationPath(token) };
  });
}

/** The application's invitations, newest first, with their status. */
export async function listInvitations(applicationId: string, now = new Date()): Promise<Array<Invitation & { status: InvitationStatus }>> {
  const rows = await db().invitation.findMany({ where: { applicationId }, select: invitationFields, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map((row) => ({ ...row, status: invitationStatus(row, now) }));
}

/** Revokes a pending invitation of the caller's application (an id of another application is not found). */
export async function revokeInvitation(access: ApplicationAccess, invitationId: string, now = new Date()): Promise<Invitation> {
  requirePermission(access, "team.manage");
  const applicationId = access.application.id;
  return withTransaction("ReadCommitted", async (tx) => {
    const { count } = await tx.invitation.updateMany({ where: { id: invitationId, applicationId, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    const invitation = await tx.invitation.findFirst({ where: { id: invitationId, applicationId }, select: invitationFields });
    if (!invitation) throw new NotFoundError("The invitation");
    if (count === 0 && invitation.acceptedAt) throw new TeamError("invitation_used", "This invitation was already accepted.");
    if (count > 0) await recordAudit(tx, { action: "team.invite_revoke", actor: memberActor(access), applicationId, targetType: "invitation", targetId: invitation.id, before: { email: invitation.email, revokedAt: null }, after: { email: invitation.email, revokedAt: now } });
    return invitation;
  });
}

/** What an invitation link shows before it is accepted: the application's name, the role and the email. */
export async function previewInvitation(token: string, now = new Date()) {
  const parsed = invitationTokenSchema.safeParse(token);
  if (!parsed.success) return null;
  const invitation = await db().invitation.findUnique({
    where: { tokenHash: hashToken(parsed.data) },
    select: { ...invitationFields, application: { select: { name: true } } },
  });
  if (!invitation) return null;
  const { application, ...rest } = invitation;
  return { ...rest, applicationName: application.name, status: invitationStatus(rest, now) };
}

/**
 * Accepts an invitation as the signed-in developer, whose email must be the invited one (case-insensitive). The
 * membership and the acceptance are written together; an expired, revoked or used link is refused.
 */
export async function acceptInvitation(input: { token: string; developerId: string }, now = new Date()): Promise<{ applicationId: string; role: ApplicationRole }> {
  const parsed = invitationTokenSchema.safeParse(input.token);
  if (!parsed.success) throw new TeamError("invitation_invalid", "This invitation link is not valid.");
  return withTransaction("ReadCommitted", async (tx) => {
    const rows = await tx.$queryRaw<Invitation[]>`
      SELECT "id", "applicationId", "email", "role"::text AS "role", "invitedById", "createdAt", "expiresAt", "acceptedAt", "revokedAt"
      FROM "Invitation" WHERE "tokenHash" = ${hashToken(parsed.data)} FOR UPDATE`;
    const invitation = rows[0];
    if (!invitation) throw new TeamError("invitation_invalid", "This invitation link is not valid.");
    const status = invitationStatus(invitation, now);
    if (status === "accepted") throw new TeamError("invitation_used", "This invitation was already accepted.");
    if (status === "revoked") throw new TeamError("invitation_revoked", "This invitation was revoked.");
    if (status === "expired") throw new TeamError("invitation_expired", "This invitation has expired; ask for a new one.");
    const developer = await tx.developer.findUnique({ where: { id: input.developerId }, select: { email: true } });
    if (!developer || developer.email.toLowerCase() !== invitation.email.toLowerCase()) {
      throw new TeamError("invitation_email_mismatch", `This invitation is for ${invitation.email}; sign in with that address to accept it.`);
    }
    const member = await tx.applicationMember.findUnique({
      where: { applicationId_developerId: { applicationId: invitation.applicationId, developerId: input.developerId } },
    });
    // A second invitation for someone who joined through another one is used up, and their role stays as it is
    // (only an owner changes roles, on the team page).
    if (!member) {
      await tx.applicationMember.create({ data: { applicationId: invitation.applicationId, developerId: input.developerId, role: invitation.role, createdAt: now } });
      await recordAudit(tx, { action: "team.join", actor: memberActor(input), applicationId: invitation.applicationId, targetType: "developer", targetId: input.developerId, before: null, after: { role: invitation.role, invitationId: invitation.id } });
    }
    await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: now, acceptedById: input.developerId } });
    return { applicationId: invitation.applicationId, role: member?.role ?? invitation.role };
  });
}
