import { describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications";
import { db } from "@/lib/db";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import {
  acceptInvitation,
  can,
  changeMemberRole,
  createInvitation,
  ForbiddenError,
  getApplicationAccess,
  listApplicationsFor,
  listInvitations,
  listMembers,
  previewInvitation,
  removeMember,
  requirePermission,
  revokeInvitation,
  type ApplicationAccess,
} from "@/lib/team";

async function access(developerId: string, applicationId: string): Promise<ApplicationAccess> {
  const found = await getApplicationAccess(developerId, applicationId);
  if (!found) throw new Error("no access");
  return found;
}

async function inviteAndAccept(applicationId: string, ownerId: string, role: "owner" | "member" = "member") {
  const invitee = await createTestDeveloper();
  const { token } = await createInvitation({ applicationId, invitedById: ownerId, email: invitee.email.toUpperCase(), role });
  await acceptInvitation({ token, developerId: invitee.id });
  return invitee;
}

describe("application access", () => {
  it("makes the creator an owner and hides applications from non-members (null, not an error)", async () => {
    const { developer, application } = await createTestApplication();
    const stranger = await createTestDeveloper();
    expect(await getApplicationAccess(developer.id, application.id)).toMatchObject({ role: "owner", application: { id: application.id, name: "Test App" } });
    expect(await getApplicationAccess(stranger.id, application.id)).toBeNull();
    expect(await getApplicationAccess(developer.id, "app_doesnotexist")).toBeNull();
  });

  it("treats an id that is not shaped like one (a NUL byte, which PostgreSQL refuses) as no application, not an error", async () => {
    const { developer } = await createTestApplication();
    for (const junk of ["\0", "app_\0", `app_${"x".repeat(23)}\0`, "x".repeat(500)]) expect(await getApplicationAccess(developer.id, junk)).toBeNull();
  });

  it("lists a developer's applications newest first with their role, and only theirs", async () => {
    const { developer, application: first } = await createTestApplication();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createApplication({ developerId: developer.id, name: "Second" });
    const other = await createTestApplication();
    const member = await inviteAndAccept(other.application.id, other.developer.id);
    expect((await listApplicationsFor(developer.id)).map((app) => [app.id, app.role])).toEqual([
      [second.id, "owner"],
      [first.id, "owner"],
    ]);
    expect((await listApplicationsFor(member.id)).map((app) => [app.id, app.role])).toEqual([[other.application.id, "member"]]);
  });

  it("members cannot delete, enable production, hold live keys, see or rotate the secret, or manage the team", () => {
    for (const permission of ["application.delete", "production.enable", "keys.live", "keys.rotate", "webhooks.reveal_secret", "webhooks.rotate_secret", "team.manage"] as const) {
      expect(can("member", permission)).toBe(false);
      expect(can("owner", permission)).toBe(true);
    }
    for (const permission of ["application.read", "application.manage", "keys.sandbox", "sandbox.use"] as const) expect(can("member", permission)).toBe(true);
    expect(() => requirePermission({ role: "member" }, "application.delete")).toThrow(ForbiddenError);
    expect(() => requirePermission({ role: "owner" }, "application.delete")).not.toThrow();
  });
});

describe("invitations", () => {
  it("a token shown once, stored hashed, accepted by the invited email only (case-insensitive)", async () => {
    const { developer, application } = await createTestApplication();
    const invitee = await createTestDeveloper("Invitee.Person@Example.test");
    const wrong = await createTestDeveloper();
    const { invitation, token, path } = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: " INVITEE.person@example.test ", role: "member" });
    expect(path).toBe(`/invitations/${token}`);
    expect(invitation).toMatchObject({ id: expect.stringMatching(/^inv_/), email: "invitee.person@example.test", role: "member" });
    const stored = await db().invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(stored.tokenHash).not.toContain(token);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(await previewInvitation(token)).toMatchObject({ applicationName: "Test App", status: "pending", email: "invitee.person@example.test" });

    await expect(acceptInvitation({ token, developerId: wrong.id })).rejects.toMatchObject({ code: "invitation_email_mismatch" });
    expect(await acceptInvitation({ token, developerId: invitee.id })).toEqual({ applicationId: application.id, role: "member" });
    expect((await getApplicationAccess(invitee.id, application.id))?.role).toBe("member");
    await expect(acceptInvitation({ token, developerId: invitee.id })).rejects.toMatchObject({ code: "invitation_used" });
    await expect(acceptInvitation({ token: "x".repeat(43), developerId: invitee.id })).rejects.toMatchObject({ code: "invitation_invalid" });
  });

  it("a second invitation accepted after joining through another is used up and keeps the role", async () => {
    const { developer, application } = await createTestApplication();
    const invitee = await createTestDeveloper();
    const first = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "member" });
    const second = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "owner" });
    await acceptInvitation({ token: first.token, developerId: invitee.id });
    expect(await acceptInvitation({ token: second.token, developerId: invitee.id })).toEqual({ applicationId: application.id, role: "member" });
    expect((await getApplicationAccess(invitee.id, application.id))?.role).toBe("member");
    expect((await listInvitations(application.id)).map((row) => row.status)).toEqual(["accepted", "accepted"]);
  });

  it("refuses expired and revoked invitations; revoking is scoped to the application", async () => {
    const { developer, application } = await createTestApplication();
    const other = await createTestApplication();
    const invitee = await createTestDeveloper();
    const now = new Date();
    const expired = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "member" }, new Date(now.getTime() - 8 * 24 * 3600 * 1000));
    await expect(acceptInvitation({ token: expired.token, developerId: invitee.id })).rejects.toMatchObject({ code: "invitation_expired" });

    const revoked = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "owner" });
    const otherOwner = await access(other.developer.id, other.application.id);
    await expect(revokeInvitation(otherOwner, revoked.invitation.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await listInvitations(other.application.id)).length).toBe(0);
    await revokeInvitation(await access(developer.id, application.id), revoked.invitation.id);
    await expect(acceptInvitation({ token: revoked.token, developerId: invitee.id })).rejects.toMatchObject({ code: "invitation_revoked" });
    expect((await listInvitations(application.id)).map((row) => row.status).sort()).toEqual(["expired", "revoked"]);
  });

  it("only owners invite; non-members cannot invite; existing members are refused", async () => {
    const { developer, application } = await createTestApplication();
    const member = await inviteAndAccept(application.id, developer.id);
    const stranger = await createTestDeveloper();
    await expect(createInvitation({ applicationId: application.id, invitedById: member.id, email: "a@example.test", role: "member" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createInvitation({ applicationId: application.id, invitedById: stranger.id, email: "a@example.test", role: "member" })).rejects.toMatchObject({ code: "not_found" });
    await expect(createInvitation({ applicationId: application.id, invitedById: developer.id, email: member.email, role: "member" })).rejects.toMatchObject({ code: "already_member" });
    await expect(createInvitation({ applicationId: application.id, invitedById: developer.id, email: "not an email", role: "member" })).rejects.toThrow();
  });
});

describe("members", () => {
  it("lists members; changes roles; never removes or demotes the last owner", async () => {
    const { developer, application } = await createTestApplication();
    const member = await inviteAndAccept(application.id, developer.id);
    const owner = await access(developer.id, application.id);
    expect((await listMembers(application.id)).map((row) => [row.developerId, row.role, row.isCreator])).toEqual([
      [developer.id, "owner", true],
      [member.id, "member", false],
    ]);
    await expect(changeMemberRole(owner, { developerId: developer.id, role: "member" })).rejects.toMatchObject({ code: "last_owner" });
    await expect(removeMember(owner, developer.id)).rejects.toMatchObject({ code: "last_owner" });
    await expect(changeMemberRole(await access(member.id, application.id), { developerId: member.id, role: "owner" })).rejects.toBeInstanceOf(ForbiddenError);

    await changeMemberRole(owner, { developerId: member.id, role: "owner" });
    await changeMemberRole(owner, { developerId: developer.id, role: "member" });
    expect((await getApplicationAccess(developer.id, application.id))?.role).toBe("member");
    const newOwner = await access(member.id, application.id);
    await removeMember(newOwner, developer.id);
    expect(await getApplicationAccess(developer.id, application.id)).toBeNull();
  });

  it("a member may leave but not remove others; another application's member is not found", async () => {
    const { developer, application } = await createTestApplication();
    const other = await createTestApplication();
    const a = await inviteAndAccept(application.id, developer.id);
    const b = await inviteAndAccept(application.id, developer.id);
    await expect(removeMember(await access(a.id, application.id), b.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeMember(await access(developer.id, application.id), other.developer.id)).rejects.toMatchObject({ code: "not_found" });
    await removeMember(await access(a.id, application.id), a.id);
    expect(await getApplicationAccess(a.id, application.id)).toBeNull();
  });
});
