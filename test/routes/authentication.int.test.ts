import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { bearer, createTestApplication } from "@/test/factories";
import { hashApiKey } from "@/lib/auth";
import { INTERNAL_HEADER } from "@/lib/http";
import { authFailuresPerMinute } from "@/lib/config";
import { dispatchApiRequest } from "@/lib/routes";

async function getApp(headers: HeadersInit = {}, from?: string) {
  const sent = new Headers(headers);
  if (from) sent.set(INTERNAL_HEADER.clientAddress, from);
  const response = await dispatchApiRequest(new Request("http://localhost/api/v1/app", { headers: sent }));
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

describe("the failed-authentication limit per address (issue 22)", () => {
  const wrongKey = (index: number) => bearer(`ck_test_${index.toString().padStart(43, "W")}`);

  /** Spends the address's failed authentications: the failure that spends them is answered 429 itself. */
  async function spend(from: (index: number) => string) {
    for (let index = 0; index < authFailuresPerMinute(); index++) {
      expect(await getApp(wrongKey(index), from(index))).toMatchObject({ status: 401, code: "invalid_api_key" });
    }
    expect(await getApp(wrongKey(authFailuresPerMinute()), from(authFailuresPerMinute()))).toMatchObject({ status: 429, code: "rate_limited" });
  }

  it("a valid key from a blocked address is served under its own key's limit; no key and bad keys get 429 alike", async () => {
    const { sandboxKey, sandboxKeyId } = await createTestApplication();
    const shared = "198.51.100.44";
    await spend(() => shared);

    const served = await getApp(bearer(sandboxKey), shared);
    expect(served.status).toBe(200);
    expect(served.headers.get("ratelimit")).toMatch(/^"key";r=299;t=\d+$/);

    // What a guesser gets meanwhile: one 429 for an unknown, a malformed, a revoked and a missing key, naming only the
    // address limit, so nothing tells these apart or from the 401 it had before.
    const { sandboxKey: revokedKey, sandboxKeyId: revokedId } = await createTestApplication();
    await db().apiKey.update({ where: { id: revokedId }, data: { revokedAt: new Date() } });
    const refusals = [await getApp(wrongKey(1000), shared), await getApp(bearer("ck_test_short"), shared), await getApp(bearer(revokedKey), shared), await getApp({}, shared)];
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 429, code: "rate_limited" });
      expect(refusal.headers.get("ratelimit")).toMatch(/^"auth-failure";r=0;t=\d+$/);
      expect(refusal.body.error.message).toBe(refusals[0]!.body.error.message);
    }
    // Still served, and counted on its key, not on the address.
    expect((await getApp(bearer(sandboxKey), shared)).headers.get("ratelimit")).toMatch(/^"key";r=298;t=\d+$/);
    expect(await db().apiKey.count({ where: { id: sandboxKeyId, revokedAt: null } })).toBe(1);
    // Another address is not affected.
    expect(await getApp(wrongKey(1001), "198.51.100.45")).toMatchObject({ status: 401, code: "invalid_api_key" });
  });

  it("an IPv6 /64 counts as one address", async () => {
    await spend((index) => `2001:db8:44:1::${(index + 1).toString(16)}`);
    expect(await getApp(wrongKey(2000), "2001:db8:44:1:ffff::9")).toMatchObject({ status: 429, code: "rate_limited" });
    expect(await getApp(wrongKey(2001), "2001:db8:44:2::1")).toMatchObject({ status: 401, code: "invalid_api_key" });
  });
});
