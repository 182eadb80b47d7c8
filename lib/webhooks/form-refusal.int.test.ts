import dns from "node:dns";
import { afterAll, beforeAll, afterEach, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { NOT_PUBLIC } from "@/lib/outbound";
import { createTestApplication } from "@/test/factories";
import { startReceiver } from "@/test/webhook-receiver";
import { deliverWebhook } from "./deliver";
import { deliveryFix } from "./delivery-fix";
import { deliveryPolicy, MAX_ATTEMPTS } from "./policy";

// Attempts are made one by one with deliverWebhook (no worker loop), so each attempt's outcome is the test's to see.
let receiver: Awaited<ReturnType<typeof startReceiver>>;
// Every application of this file shares one signing secret, so the one receiver verifies them all.
let sharedSealed: string;

beforeAll(async () => {
  const seed = await createTestApplication();
  sharedSealed = seed.application.signingSecretEncrypted;
  receiver = await startReceiver(decryptSecret(sharedSealed));
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

afterAll(() => receiver.close());

/** An event of the application's to the URL stored as is (past the save check, as a URL saved before the rule was). */
async function deliveryTo(webhookUrl: string, environment: "sandbox" | "live") {
  const { application } = await createTestApplication({ webhookUrl });
  await db().application.update({ where: { id: application.id }, data: { signingSecretEncrypted: sharedSealed } });
  const event = await recordEvent({ applicationId: application.id, environment, type: "consent.granted", data: { subject: "u_1", receiptId: "cr_1" } });
  return db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
}

const stored = (id: string) => db().webhookDelivery.findUniqueOrThrow({ where: { id }, include: { attemptLog: { orderBy: { attempt: "asc" } } } });

describe("a delivery whose URL the rules refuse by its form", () => {
  it("fails at its first attempt with the reason, without retries, for each form the live rules refuse", async () => {
    const cases = [
      ["http://hooks.example.com/x", "live webhooks must use https"],
      ["not a url", "not an absolute URL"],
      ["https://user:pw@hooks.example.com/x", "credentials in the URL are not allowed"],
      [`https://127.0.0.1:${receiver.port}/x`, NOT_PUBLIC],
      ["https://10.0.0.5/x", NOT_PUBLIC],
      ["https://localhost/x", NOT_PUBLIC],
    ] as const;
    const before = receiver.arrivals();
    for (const [url, reason] of cases) {
      const delivery = await deliveryTo(url, "live");
      expect(await deliverWebhook({ deliveryId: delivery.id, attempt: 1 }), url).toBe("failed");
      const row = await stored(delivery.id);
      expect(row, url).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null, responseCode: null, lastError: `refused: ${reason}` });
      expect(row.attemptLog, url).toEqual([expect.objectContaining({ attempt: 1, responseCode: null, responseExcerpt: null, latencyMs: 0, error: `refused: ${reason}` })]);
      // Nothing is left to retry, and the delivery log says how to fix it.
      expect(await deliverWebhook({ deliveryId: delivery.id, attempt: 2 }), url).toBe("skipped");
      expect(deliveryFix(row.lastError), url).toMatch(/then resend\.$/);
    }
    expect(deliveryFix(`refused: live webhooks must use https`)).toBe("Set an https webhook URL on the Webhooks page, then resend.");
    expect(receiver.arrivals()).toBe(before);
  });

  it("judges a sandbox delivery by the sandbox rules: http may go out, a loopback receiver only where the deployment opts in", async () => {
    const refused = await deliveryTo(`http://127.0.0.1:${receiver.port}/sandbox`, "sandbox");
    expect(await deliverWebhook({ deliveryId: refused.id, attempt: 1 })).toBe("failed");
    expect(await stored(refused.id)).toMatchObject({ status: "failed", attempts: 1, lastError: `refused: ${NOT_PUBLIC}` });
    const scheme = await deliveryTo("ftp://hooks.example.com/x", "sandbox");
    expect(await deliverWebhook({ deliveryId: scheme.id, attempt: 1 })).toBe("failed");
    expect(await stored(scheme.id)).toMatchObject({ status: "failed", attempts: 1, lastError: "refused: webhooks must use http or https" });

    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    const allowed = await deliveryTo(`http://127.0.0.1:${receiver.port}/sandbox`, "sandbox");
    expect(await deliverWebhook({ deliveryId: allowed.id, attempt: 1 })).toBe("succeeded");
    // The same URL for a live event is refused by the live rules, opt-in or not.
    const live = await deliveryTo(`http://127.0.0.1:${receiver.port}/live`, "live");
    expect(await deliverWebhook({ deliveryId: live.id, attempt: 1 })).toBe("failed");
    expect(await stored(live.id)).toMatchObject({ status: "failed", attempts: 1, lastError: "refused: live webhooks must use https" });
  });

  it("still retries a name that resolves to a refused address (DNS can change; it is checked again at every connection)", async () => {
    const lookup = dns.lookup;
    vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
      if (hostname === "hooks.rebind.example") return callback(null, [{ address: "127.0.0.1", family: 4 }]);
      return (lookup as (...args: unknown[]) => void)(hostname, options, callback);
    }) as typeof dns.lookup);
    const delivery = await deliveryTo(`https://hooks.rebind.example:${receiver.port}/x`, "live");
    expect(await deliverWebhook({ deliveryId: delivery.id, attempt: 1 })).toBe("retrying");
    const row = await stored(delivery.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: `refused: ${NOT_PUBLIC}` });
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    expect(deliveryPolicy().maxAttempts).toBe(MAX_ATTEMPTS);
  });
});
