import { describe, expect, it } from "vitest";
import * as appRoute from "@/app/api/v1/app/route";
import { db } from "@/lib/db";
import { bearer, createTestApplication, routeContext } from "@/test/factories";
import { hashApiKey } from "@/lib/auth";

async function getApp(headers: HeadersInit = {}) {
  const response = await appRoute.GET(new Request("http://localhost/api/v1/app", { headers }), routeContext());
  const body = await response.json();
  return { status: response.status, code: body.error?.code as string | undefined, body, headers: response.headers };
}

describe("API key authentication (docs/contract.md, Authentication)", () => {
  it("a missing or non-Bearer Authorization header is 401 missing_api_key", async () => {
    const { sandboxKey } = await createTestApplication();
    const variants: Record<string, string>[] = [{}, { Authorization: "" }, { Authorization: `Basic ${sandboxKey}` }, { Authorization: "Bearer" }, { Authorization: "Bearer   " }];
    for (const headers of variants) {
      expect(await getApp(headers)).toMatchObject({ status: 401, code: "missing_api_key" });
    }
  });

  it("unknown, revoked and malformed keys are 401 invalid_api_key", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const unknown = `ck_test_${"A".repeat(43)}`;
    const malformed = ["ck_test_short", "sk_test_" + "A".repeat(43), `ck_prod_${"A".repeat(43)}`, `${sandboxKey}x`, "x".repeat(5000)];
    expect(await getApp(bearer(unknown))).toMatchObject({ status: 401, code: "invalid_api_key" });
    for (const key of malformed) expect(await getApp(bearer(key))).toMatchObject({ status: 401, code: "invalid_api_key" });

    expect((await getApp(bearer(sandboxKey))).status).toBe(200);
    await db().apiKey.update({ where: { id: sandboxKeyId }, data: { revokedAt: new Date() } });
    expect(await getApp(bearer(sandboxKey))).toMatchObject({ status: 401, code: "invalid_api_key" });
  });

  it("a live-prefixed string whose hash matches a sandbox key is refused", async () => {
    const { sandboxKey } = await createTestApplication();
    const relabelled = sandboxKey.replace("ck_test_", "ck_live_");
    expect(await getApp(bearer(relabelled))).toMatchObject({ status: 401, code: "invalid_api_key" });
  });

  it("a live key needs production: 403 production_not_enabled until it is enabled", async () => {
    const { application, liveKey } = await createTestApplication();
    expect(await getApp(bearer(liveKey))).toMatchObject({ status: 403, code: "production_not_enabled" });
    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true, status: "active" } });
    const ok = await getApp(bearer(liveKey));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ environment: "live", productionEnabled: true, status: "active" });
  });

  it("a suspended application is 403 app_suspended for both its keys", async () => {
    const { application, sandboxKey, liveKey } = await createTestApplication({ productionEnabled: true });
    await db().application.update({ where: { id: application.id }, data: { status: "suspended" } });
    expect(await getApp(bearer(sandboxKey))).toMatchObject({ status: 403, code: "app_suspended" });
    expect(await getApp(bearer(liveKey))).toMatchObject({ status: 403, code: "app_suspended" });
  });

  it("GET /app resolves the calling key's application and environment", async () => {
    const { application, sandboxKey } = await createTestApplication({ categoryAllowlist: ["labs", "vitals"], syncMode: "continuous" });
    const { status, body, headers } = await getApp(bearer(sandboxKey));
    expect(status).toBe(200);
    expect(body).toEqual({
      object: "application",
      id: application.id,
      name: "Test App",
      environment: "sandbox",
      status: "sandbox",
      categoryAllowlist: ["labs", "vitals"],
      syncMode: "continuous",
      productionEnabled: false,
    });
    expect(headers.get("ratelimit")).toMatch(/^"key";r=299;t=\d+$/);
  });

  it("keys are stored only as SHA-256 hashes", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: sandboxKeyId } });
    expect(stored.secretHash).toBe(hashApiKey(sandboxKey));
    expect(JSON.stringify(stored)).not.toContain(sandboxKey.slice(8));
    expect(stored.displayPrefix.length).toBeLessThan(16);
  });
});
