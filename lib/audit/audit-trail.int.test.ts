import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { signUp, verifySignIn } from "@/lib/accounts";
import {
  createKeyFor,
  deleteApplication,
  requestProduction,
  revokeKeyFor,
  rotateSigningSecretFor,
  setRedirectUrls,
  setSyncMode,
  setWebhookUrl,
  updateCategoryAllowlist,
} from "@/lib/applications";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { approveProductionRequest, reinstateApplication, suspendApplication } from "@/lib/operators";
import { setLiveProviderDisabled, updateLiveProvider } from "@/lib/provider-directory";
import { acceptInvitation, changeMemberRole, createInvitation, getApplicationAccess, removeMember, revokeInvitation, type ApplicationAccess } from "@/lib/team";
import { issueCredential, subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { withAuditAddress } from "./audit-context";
import { listAuditEntries, type AuditEntryView } from "./read-audit";

// The audit trail as the product writes it: each security-relevant action, called through the same domain functions
// the dashboard's server actions and the API call, leaves exactly one entry with who, from where and what changed.

const ADDRESS = "198.51.100.23";

let origin: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
});
afterAll(() => close());
afterEach(() => vi.unstubAllEnvs());

async function newestEntries(count: number): Promise<AuditEntryView[]> {
  return (await listAuditEntries({ deployment: true }, {}, { limit: count })).entries;
}

/** Runs `work` as a request from ADDRESS would, and returns the one entry it wrote (failing if it wrote 0 or 2+). */
async function oneEntry(work: () => Promise<unknown>): Promise<AuditEntryView> {
  const before = await db().auditEntry.count();
  await withAuditAddress(ADDRESS, work);
  expect(await db().auditEntry.count()).toBe(before + 1);
  const [entry] = await newestEntries(1);
  return entry!;
}

async function noEntry(work: () => Promise<unknown>): Promise<void> {
  const before = await db().auditEntry.count();
  await withAuditAddress(ADDRESS, work).catch(() => undefined);
  expect(await db().auditEntry.count()).toBe(before);
}

async function access(developerId: string, applicationId: string): Promise<ApplicationAccess> {
  const found = await getApplicationAccess(developerId, applicationId);
  if (!found) throw new Error("no access");
  return found;
}

describe("the audit trail", () => {
  it("records each member action once, with its actor, address and before/after, and never a secret", async () => {
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    const { developer, application } = await createTestApplication();
    const owner = await access(developer.id, application.id);
    const actor = { actorType: "developer", actorId: developer.id, actorLabel: developer.email, address: ADDRESS, applicationId: application.id };

    const created = await createKeyFor(owner, { environment: "sandbox", name: "Backend" });
    const [keyEntry] = await newestEntries(1);
    expect(keyEntry).toMatchObject({ ...actor, address: "unknown", action: "api_key.create", targetType: "api_key", targetId: created.id, before: null, after: { name: "Backend", environment: "sandbox", displayPrefix: created.displayPrefix } });
    expect(JSON.stringify(keyEntry)).not.toContain(created.key);

    expect(await oneEntry(() => revokeKeyFor(owner, created.id))).toMatchObject({ ...actor, action: "api_key.revoke", targetId: created.id, before: { revokedAt: null }, after: { revokedAt: expect.any(String) } });
    await noEntry(() => revokeKeyFor(owner, created.id));

    expect(await oneEntry(() => setWebhookUrl(owner, { webhookUrl: "http://localhost:4000/hooks" }))).toMatchObject({
      ...actor,
      action: "webhook.url_change",
      before: { webhookUrl: null },
      after: { webhookUrl: "http://localhost:4000/hooks" },
    });
    await noEntry(() => setWebhookUrl(owner, { webhookUrl: "http://localhost:4000/hooks" }));

    let secret = "";
    const rotation = await oneEntry(async () => ({ secret } = await rotateSigningSecretFor(owner)));
    expect(rotation).toMatchObject({ ...actor, action: "webhook.secret_rotate", after: { signingSecretChanged: true, previousExpiresAt: expect.any(String) } });
    expect(JSON.stringify(rotation)).not.toContain(secret.slice(6));

    expect(await oneEntry(() => updateCategoryAllowlist(owner, { categories: ["labs", "medications"] }))).toMatchObject({
      ...actor,
      action: "application.allowlist_change",
      before: { categoryAllowlist: application.categoryAllowlist },
      after: { categoryAllowlist: ["medications", "labs"] },
    });
    expect(await oneEntry(() => setSyncMode(owner, { syncMode: "continuous" }))).toMatchObject({ ...actor, action: "application.sync_mode_change", before: { syncMode: "one_time" }, after: { syncMode: "continuous" } });
    expect(await oneEntry(() => setRedirectUrls(owner, { redirectUrls: ["https://app.example/back"] }))).toMatchObject({
      ...actor,
      action: "application.redirect_urls_change",
      before: { redirectUrls: [] },
      after: { redirectUrls: ["https://app.example/back"] },
    });

    // The team: an invitation, its acceptance, a role change, a removal, a revoked invitation.
    const colleague = await createTestDeveloper();
    let token = "";
    const invite = await oneEntry(async () => ({ token } = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: colleague.email, role: "member" })));
    expect(invite).toMatchObject({ ...actor, action: "team.invite", targetType: "invitation", after: { email: colleague.email, role: "member" } });
    expect(JSON.stringify(invite)).not.toContain(token);
    expect(await oneEntry(() => acceptInvitation({ token, developerId: colleague.id }))).toMatchObject({
      action: "team.join",
      actorId: colleague.id,
      actorLabel: colleague.email,
      targetId: colleague.id,
      after: { role: "member", invitationId: invite.targetId },
    });
    expect(await oneEntry(() => changeMemberRole(owner, { developerId: colleague.id, role: "owner" }))).toMatchObject({ ...actor, action: "team.role_change", targetId: colleague.id, before: { role: "member" }, after: { role: "owner" } });
    await noEntry(() => changeMemberRole(owner, { developerId: colleague.id, role: "owner" }));
    expect(await oneEntry(() => removeMember(owner, colleague.id))).toMatchObject({ ...actor, action: "team.member_remove", targetId: colleague.id, before: { role: "owner" }, after: null });
    const second = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: "later@example.test", role: "member" });
    expect(await oneEntry(() => revokeInvitation(owner, second.invitation.id))).toMatchObject({ ...actor, action: "team.invite_revoke", targetId: second.invitation.id, after: { email: "later@example.test", revokedAt: expect.any(String) } });

    // Production: the owner asks (the live rules refuse a loopback webhook, so it is cleared first), an operator decides.
    await setWebhookUrl(owner, { webhookUrl: null });
    const operator = await createTestDeveloper();
    vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
    const asked = await oneEntry(() => requestProduction(owner, { description: "Shows patients their lab trends between visits.", redirectUrls: ["https://labs.example/connected"], contactEmail: "ops@labs.example" }));
    expect(asked).toMatchObject({ ...actor, action: "production.request", targetType: "production_request", after: { status: "pending", contactEmail: "ops@labs.example" } });
    const operatorActor = { actorType: "operator", actorId: operator.id, actorLabel: operator.email, address: ADDRESS, applicationId: application.id };
    expect(await oneEntry(() => approveProductionRequest(operator.id, asked.targetId))).toMatchObject({
      ...operatorActor,
      action: "production.approve",
      targetId: asked.targetId,
      before: { status: "pending", productionEnabled: false },
      after: { status: "approved", productionEnabled: true },
    });
    expect(await oneEntry(() => suspendApplication(operator.id, application.id, { reason: "A patient reported misuse." }))).toMatchObject({
      ...operatorActor,
      action: "application.suspend",
      before: { status: "active" },
      after: { status: "suspended", reason: "A patient reported misuse." },
    });
    expect(await oneEntry(() => reinstateApplication(operator.id, application.id))).toMatchObject({ ...operatorActor, action: "application.reinstate", before: { status: "suspended" }, after: { status: "active" } });

    // The provider directory: a secret replaced is recorded as changed, never as its value.
    const provider = await db().provider.create({
      data: { id: newId("prov_"), environment: "live", name: "Riverside", fhirBaseUrl: "https://fhir.riverside.example/r4", authorizeUrl: "https://a.example", tokenUrl: "https://t.example", clientId: "old-client", clientSecretEncrypted: "" },
    });
    const updated = await oneEntry(() => updateLiveProvider(operator.id, provider.id, { name: "Riverside Health", clientId: "new-client", clientSecret: "top-s3cret" }));
    expect(updated).toMatchObject({ ...operatorActor, applicationId: null, action: "provider.update", before: { name: "Riverside", clientId: "old-client" }, after: { name: "Riverside Health", clientId: "new-client", clientSecretChanged: true } });
    expect(JSON.stringify(updated)).not.toContain("top-s3cret");
    expect(await oneEntry(() => setLiveProviderDisabled(operator.id, provider.id, true))).toMatchObject({ action: "provider.disable", before: { disabled: false }, after: { disabled: true } });

    expect(await oneEntry(() => deleteApplication(owner))).toMatchObject({ ...actor, action: "application.delete", before: { name: "Test App" } });
    // The entries outlive the application they name.
    expect((await listAuditEntries({ applicationId: application.id }, {})).entries.length).toBeGreaterThan(15);
  });

  it("records delegated credentials issued and revoked over the API with the key and the client's address", async () => {
    const { credential, application, subject, sandboxKey } = await subjectWithCredential(origin);
    const [issued] = await newestEntries(1);
    expect(issued).toMatchObject({
      action: "agent_credential.issue",
      actorType: "api_key",
      actorLabel: sandboxKey.slice(0, 12),
      address: "127.0.0.1",
      applicationId: application.id,
      targetId: credential.id,
      after: { subject: subject.id, categories: ["medications", "labs"], operations: credential.operations },
    });
    expect(JSON.stringify(issued)).not.toContain(credential.token);
    const other = await issueCredential(origin, sandboxKey, { subject: subject.id, categories: ["labs"], purpose: "Plot the trend", durationSeconds: 300 });
    const revoked = await oneEntry(async () => expect((await request(origin, "DELETE", `/api/v1/agent-credentials/${other.id}`, { token: sandboxKey })).status).toBe(200));
    expect(revoked).toMatchObject({ action: "agent_credential.revoke", actorType: "api_key", address: "127.0.0.1", targetId: other.id, before: { revokedAt: null }, after: { revokedAt: expect.any(String) } });
    await noEntry(() => request(origin, "DELETE", `/api/v1/agent-credentials/${other.id}`, { token: sandboxKey }));
  });

  it("records sign-ins, failed ones too, with the address they came from", async () => {
    const account = await signUp({ email: "audited@example.test", name: "Audited", password: "correct horse battery" }, "203.0.113.5");
    await verifySignIn({ email: "audited@example.test", password: "correct horse battery", address: "203.0.113.5" });
    expect((await newestEntries(1))[0]).toMatchObject({ action: "auth.sign_in", actorType: "developer", actorId: account.id, actorLabel: "audited@example.test", address: "203.0.113.5", applicationId: null });
    await expect(verifySignIn({ email: "audited@example.test", password: "wrong password here", address: "203.0.113.6" })).rejects.toMatchObject({ code: "invalid_credentials" });
    const [failed] = await newestEntries(1);
    expect(failed).toMatchObject({ action: "auth.sign_in_failed", actorType: "anonymous", actorId: null, actorLabel: "audited@example.test", address: "203.0.113.6", targetId: account.id, after: { reason: "wrong_password" } });
    expect(JSON.stringify(failed)).not.toContain("wrong password here");
    await expect(verifySignIn({ email: "nobody@example.test", password: "whatever it is", address: "203.0.113.7" })).rejects.toMatchObject({ code: "invalid_credentials" });
    expect((await newestEntries(1))[0]).toMatchObject({ action: "auth.sign_in_failed", actorLabel: "nobody@example.test", address: "203.0.113.7", after: { reason: "unknown_email" } });
  });

  it("writes nothing when the change it would record is refused and rolled back", async () => {
    const { developer, application } = await createTestApplication();
    const owner = await access(developer.id, application.id);
    await noEntry(() => changeMemberRole(owner, { developerId: developer.id, role: "member" }));
    await noEntry(() => removeMember(owner, developer.id));
    await noEntry(() => suspendApplication(developer.id, application.id, { reason: "not an operator" }));
  });

  it("is append-only in the database itself: UPDATE, DELETE and TRUNCATE are refused", async () => {
    await createTestApplication().then(async ({ developer, application }) => createKeyFor(await access(developer.id, application.id), { environment: "sandbox", name: "k" }));
    const count = await db().auditEntry.count();
    expect(count).toBeGreaterThan(0);
    await expect(db().$executeRawUnsafe(`UPDATE "AuditEntry" SET "action" = 'tampered'`)).rejects.toThrow(/append-only/);
    await expect(db().$executeRawUnsafe(`DELETE FROM "AuditEntry"`)).rejects.toThrow(/append-only/);
    await expect(db().$executeRawUnsafe(`TRUNCATE "AuditEntry"`)).rejects.toThrow(/append-only/);
    await expect(db().auditEntry.updateMany({ data: { address: "0.0.0.0" } })).rejects.toThrow(/append-only/);
    expect(await db().auditEntry.count()).toBe(count);
    expect(await db().auditEntry.count({ where: { OR: [{ action: "tampered" }, { address: "0.0.0.0" }] } })).toBe(0);
  });

  it("an application's trail holds its own entries only, filtered by action, actor and dates, paged newest first", async () => {
    const mine = await createTestApplication();
    const theirs = await createTestApplication();
    const owner = await access(mine.developer.id, mine.application.id);
    const keys = [];
    for (const name of ["one", "two", "three"]) keys.push(await createKeyFor(owner, { environment: "sandbox", name }));
    await revokeKeyFor(owner, keys[0]!.id);
    await createKeyFor(await access(theirs.developer.id, theirs.application.id), { environment: "sandbox", name: "theirs" });

    const scope = { applicationId: mine.application.id };
    const all = (await listAuditEntries(scope, {})).entries;
    expect(all.map((entry) => entry.action)).toEqual(["api_key.revoke", "api_key.create", "api_key.create", "api_key.create"]);
    expect(all.every((entry) => entry.applicationId === mine.application.id)).toBe(true);

    expect((await listAuditEntries(scope, { action: "api_key.create" })).entries.map((entry) => entry.after?.name)).toEqual(["three", "two", "one"]);
    expect((await listAuditEntries(scope, { actor: mine.developer.email.toUpperCase() })).entries).toHaveLength(4);
    expect((await listAuditEntries(scope, { actor: theirs.developer.email })).entries).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listAuditEntries(scope, { from: today, to: today })).entries).toHaveLength(4);
    expect((await listAuditEntries(scope, { to: "2020-01-01" })).entries).toHaveLength(0);
    expect((await listAuditEntries(scope, { from: "2999-01-01" })).entries).toHaveLength(0);

    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAuditEntries(scope, {}, { cursor, limit: 3 });
      paged.push(...page.entries.map((entry) => entry.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(all.map((entry) => entry.id));
    // An edited cursor starts again from the newest entry, still within the application.
    expect((await listAuditEntries(scope, {}, { cursor: "not-a-cursor", limit: 2 })).entries.map((entry) => entry.id)).toEqual(paged.slice(0, 2));
  });
});
