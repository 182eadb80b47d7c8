import { describe, expect, it, vi } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { db } from "@/lib/db";
import { acceptInvitation, createInvitation, ForbiddenError, getApplicationAccess, listApplicationsFor, type ApplicationAccess } from "@/lib/team";
import { approveProductionRequest } from "@/lib/operators";
import { createTestApplication, createTestDeveloper, createTestSubject } from "@/test/factories";
import {
  CATEGORY_DESCRIPTIONS,
  createApplicationFor,
  deleteApplication,
  renameApplication,
  requestProduction,
  setRedirectUrls,
  setSyncMode,
  setWebhookUrl,
  updateCategoryAllowlist,
} from "@/lib/applications";

async function access(developerId: string, applicationId: string): Promise<ApplicationAccess> {
  const found = await getApplicationAccess(developerId, applicationId);
  if (!found) throw new Error("no access");
  return found;
}

const PRODUCTION_REQUEST = { description: "Reads lab results for a diabetes coaching app.", redirectUrls: ["https://app.example/connected"], contactEmail: "ops@app.example" };

/** Production as it is now switched on: the owner asks, an operator (named by the deployment setting) approves. */
async function goLive(owner: ApplicationAccess) {
  const operator = await createTestDeveloper();
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
  const request = await requestProduction(owner, PRODUCTION_REQUEST);
  await approveProductionRequest(operator.id, request.id);
  return (await access(owner.developerId, owner.application.id)).application;
}

async function ownerAndMember() {
  const created = await createTestApplication();
  const invitee = await createTestDeveloper();
  const { token } = await createInvitation({ applicationId: created.application.id, invitedById: created.developer.id, email: invitee.email, role: "member" });
  await acceptInvitation({ token, developerId: invitee.id });
  return { ...created, owner: await access(created.developer.id, created.application.id), member: await access(invitee.id, created.application.id) };
}

describe("application management", () => {
  it("creates an application owned by its creator", async () => {
    const developer = await createTestDeveloper();
    const created = await createApplicationFor(developer.id, { name: "  My App " });
    expect(created).toMatchObject({ role: "owner", application: { name: "My App", status: "sandbox", productionEnabled: false } });
    expect((await listApplicationsFor(developer.id)).map((app) => app.id)).toEqual([created.application.id]);
    await expect(createApplicationFor(developer.id, { name: " " })).rejects.toThrow();
  });

  it("renames, sets the allowlist (validated, in category order), the sync mode and the redirect URLs", async () => {
    const { member } = await ownerAndMember();
    expect((await renameApplication(member, { name: "Renamed" })).name).toBe("Renamed");
    expect((await updateCategoryAllowlist(member, { categories: ["labs", "demographics", "labs"] })).categoryAllowlist).toEqual(["demographics", "labs"]);
    await expect(updateCategoryAllowlist(member, { categories: ["genomics"] })).rejects.toThrow();
    await expect(updateCategoryAllowlist(member, { categories: [] })).rejects.toThrow();
    expect((await setSyncMode(member, { syncMode: "continuous" })).syncMode).toBe("continuous");
    const saved = await setRedirectUrls(member, { redirectUrls: ["https://example.com/cb", "http://localhost:5173/cb", "https://example.com/cb"] });
    expect(saved.redirectUrls).toEqual(["https://example.com/cb", "http://localhost:5173/cb"]);
    for (const bad of ["http://example.com/cb", "/relative", "https://user:pw@example.com/", "https://example.com/#x", "ftp://example.com"]) {
      await expect(setRedirectUrls(member, { redirectUrls: [bad] })).rejects.toThrow();
    }
    expect(CATEGORY_DESCRIPTIONS).toHaveLength(10);
  });

  it("checks webhook URLs as deliveries do: http allowed in sandbox, https and public once live", async () => {
    const { owner, member } = await ownerAndMember();
    // Local receivers only where the deployment opts in; never for live.
    await expect(setWebhookUrl(member, { webhookUrl: "http://localhost:4000/hooks" })).rejects.toMatchObject({ code: "invalid_input" });
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    expect((await setWebhookUrl(member, { webhookUrl: "http://localhost:4000/hooks" })).webhookUrl).toBe("http://localhost:4000/hooks");
    await expect(setWebhookUrl(member, { webhookUrl: "not a url" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(requestProduction(await access(owner.developerId, owner.application.id), PRODUCTION_REQUEST)).rejects.toMatchObject({ code: "invalid_input" });
    await setWebhookUrl(member, { webhookUrl: "https://hooks.example.com/x" });
    const live = await goLive(await access(owner.developerId, owner.application.id));
    expect(live).toMatchObject({ productionEnabled: true, status: "active" });
    const liveMember = await access(member.developerId, member.application.id);
    await expect(setWebhookUrl(liveMember, { webhookUrl: "http://hooks.example.com/x" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(setWebhookUrl(liveMember, { webhookUrl: "https://10.0.0.5/x" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(setWebhookUrl(liveMember, { webhookUrl: "https://localhost.:5103/x" })).rejects.toMatchObject({ code: "invalid_input" });
    vi.unstubAllEnvs();
    expect((await setWebhookUrl(liveMember, { webhookUrl: null })).webhookUrl).toBeNull();
  });

  it("asking for production (owners only) and an operator's approval let live keys authenticate", async () => {
    const { owner, member, liveKey } = await ownerAndMember();
    await expect(authenticateKey(`Bearer ${liveKey}`)).rejects.toMatchObject({ code: "production_not_enabled" });
    await expect(requestProduction(member, PRODUCTION_REQUEST)).rejects.toBeInstanceOf(ForbiddenError);
    await goLive(owner);
    expect((await authenticateKey(`Bearer ${liveKey}`, { fresh: true })).environment).toBe("live");
    vi.unstubAllEnvs();
  });

  it("deletes (owners only) the application and everything it owns, and nothing of another", async () => {
    const { owner, member, application, sandboxKey } = await ownerAndMember();
    const other = await createTestApplication();
    await createTestSubject(application.id);
    const otherSubject = await createTestSubject(other.application.id);
    await db().requestLog.create({ data: { requestId: "req_del", applicationId: application.id, method: "GET", route: "GET /app", status: 200, latencyMs: 1 } });
    await db().requestLog.create({ data: { requestId: "req_keep", applicationId: other.application.id, method: "GET", route: "GET /app", status: 200, latencyMs: 1 } });
    await expect(deleteApplication(member)).rejects.toBeInstanceOf(ForbiddenError);
    await deleteApplication(owner);
    expect(await db().application.findUnique({ where: { id: application.id } })).toBeNull();
    expect(await db().apiKey.count({ where: { applicationId: application.id } })).toBe(0);
    expect(await db().subject.count({ where: { applicationId: application.id } })).toBe(0);
    expect(await db().applicationMember.count({ where: { applicationId: application.id } })).toBe(0);
    expect(await db().requestLog.count({ where: { requestId: { in: ["req_del", "req_keep"] } } })).toBe(1);
    expect(await db().subject.findUnique({ where: { id: otherSubject.id } })).not.toBeNull();
    expect(await getApplicationAccess(owner.developerId, application.id)).toBeNull();
    await expect(authenticateKey(`Bearer ${sandboxKey}`, { fresh: true })).rejects.toMatchObject({ code: "invalid_api_key" });
  });

  it("changes apply only to the caller's application", async () => {
    const { member } = await ownerAndMember();
    const other = await createTestApplication();
    await renameApplication(member, { name: "Mine" });
    expect((await db().application.findUniqueOrThrow({ where: { id: other.application.id } })).name).toBe("Test App");
  });
});
