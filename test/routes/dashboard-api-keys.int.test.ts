import { describe, expect, it } from "vitest";
import { createKeyFor, listKeysFor, revokeKeyFor } from "@/lib/applications";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth";
import { db } from "@/lib/db";
import { acceptInvitation, createInvitation, ForbiddenError, getApplicationAccess, type ApplicationAccess } from "@/lib/team";
import { bearer, createTestApplication, createTestDeveloper } from "@/test/factories";
import { dispatchApiRequest } from "@/lib/routes";

async function getApp(key: string) {
  const response = await dispatchApiRequest(new Request("http://localhost/api/v1/app", { headers: bearer(key) }));
  const body = await response.json();
  return { status: response.status, code: body.error?.code as string | undefined };
}

async function access(developerId: string, applicationId: string): Promise<ApplicationAccess> {
  const found = await getApplicationAccess(developerId, applicationId);
  if (!found) throw new Error("no access");
  return found;
}

describe("dashboard API keys", () => {
  it("lists the application's keys without hashes, newest first, run keys left out", async () => {
    const { application, sandboxKeyId, liveKeyId } = await createTestApplication();
    const other = await createTestApplication();
    const run = await db().conformanceRun.create({
      data: { id: "run_keys_test", applicationId: application.id, scenario: "baseline-adult", syncMode: "one_time", expiresAt: new Date(Date.now() + 60_000) },
    });
    await createApiKey({ applicationId: application.id, environment: "sandbox", conformanceRunId: run.id });
    const keys = await listApiKeys(application.id);
    expect(keys.map((key) => key.id).sort()).toEqual([sandboxKeyId, liveKeyId].sort());
    expect(Object.keys(keys[0]!).sort()).toEqual(["conformanceRunId", "createdAt", "displayPrefix", "environment", "id", "lastUsedAt", "name", "revokedAt"]);
    expect(await listApiKeys(application.id, { includeRunKeys: true })).toHaveLength(3);
    expect((await listApiKeys(other.application.id)).map((key) => key.id)).not.toContain(sandboxKeyId);
  });

  it("a revoked key is refused on its very next request; another application's key id is not found", async () => {
    const { application, developer, sandboxKey, sandboxKeyId } = await createTestApplication();
    const other = await createTestApplication();
    expect((await getApp(sandboxKey)).status).toBe(200);
    expect((await getApp(sandboxKey)).status).toBe(200); // now answered from the key cache

    expect(await revokeApiKey(other.application.id, sandboxKeyId)).toBeNull();
    await expect(revokeKeyFor(await access(other.developer.id, other.application.id), sandboxKeyId)).rejects.toMatchObject({ code: "not_found" });
    expect((await getApp(sandboxKey)).status).toBe(200);

    const revoked = await revokeKeyFor(await access(developer.id, application.id), sandboxKeyId);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await getApp(sandboxKey)).toEqual({ status: 401, code: "invalid_api_key" });
  });

  it("members create and revoke sandbox keys only; owners also live keys", async () => {
    const { application, developer, liveKeyId } = await createTestApplication();
    const invitee = await createTestDeveloper();
    const { token } = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "member" });
    await acceptInvitation({ token, developerId: invitee.id });
    const member = await access(invitee.id, application.id);
    const owner = await access(developer.id, application.id);

    const sandbox = await createKeyFor(member, { environment: "sandbox", name: "CI" });
    expect(sandbox.key).toMatch(/^ck_test_/);
    await expect(createKeyFor(member, { environment: "live", name: "Prod" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(revokeKeyFor(member, liveKeyId)).rejects.toBeInstanceOf(ForbiddenError);
    await revokeKeyFor(member, sandbox.id);
    // Live keys once an operator has approved production (lib/operators; set directly here).
    await expect(createKeyFor(owner, { environment: "live", name: "Prod" })).rejects.toMatchObject({ code: "invalid_input" });
    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true, status: "active" } });
    const live = await createKeyFor(await access(developer.id, application.id), { environment: "live", name: "Prod" });
    expect(live.key).toMatch(/^ck_live_/);
    expect((await listKeysFor(member)).find((key) => key.id === sandbox.id)?.revokedAt).toBeInstanceOf(Date);
    await expect(createKeyFor(owner, { environment: "sandbox", name: " " })).rejects.toThrow();
  });
});
