import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { encryptSecret } from "@/lib/auth";
import { webhookSignature } from "./signing";

const OLD = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
const NEW = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;
const ROTATED_AT = new Date("2026-11-23T12:00:00.000Z");
const secrets = { current: encryptSecret(NEW), previous: encryptSecret(OLD), previousExpiresAt: new Date(ROTATED_AT.getTime() + 24 * 3600_000) };
const body = JSON.stringify({ id: "evt_1", type: "webhook.test", timestamp: ROTATED_AT.toISOString(), environment: "sandbox", data: {} });

/** What a receiver holding `secret` concludes about a delivery made at `at`, checked at that same moment. */
function verifies(secret: string, at: Date): boolean {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  const headers = { "webhook-id": "evt_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": webhookSignature(secrets, "evt_1", at, body) };
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => vi.useRealTimers());

describe("webhook signatures across a secret rotation", () => {
  it("signs with both secrets while the previous one is valid, so a receiver holding either verifies", () => {
    for (const at of [ROTATED_AT, new Date(ROTATED_AT.getTime() + 23 * 3600_000)]) {
      expect(webhookSignature(secrets, "evt_1", at, body).split(" ")).toHaveLength(2);
      expect(verifies(OLD, at)).toBe(true);
      expect(verifies(NEW, at)).toBe(true);
    }
  });

  it("signs with the new secret alone once 24 hours have passed", () => {
    const later = new Date(ROTATED_AT.getTime() + 24 * 3600_000);
    expect(webhookSignature(secrets, "evt_1", later, body).split(" ")).toHaveLength(1);
    expect(verifies(OLD, later)).toBe(false);
    expect(verifies(NEW, later)).toBe(true);
    expect(webhookSignature({ current: secrets.current, previous: null, previousExpiresAt: null }, "evt_1", ROTATED_AT, body).split(" ")).toHaveLength(1);
  });
});
