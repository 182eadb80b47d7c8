import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "@chartkey/sdk";

// Signed by the Standard Webhooks reference library (what the platform signs deliveries with), verified by the SDK;
// and every tampered delivery is refused by both.

const secret = `whsec_${randomBytes(24).toString("base64")}`;
const otherSecret = `whsec_${randomBytes(24).toString("base64")}`;
const body = JSON.stringify({ id: "evt_1", type: "records.updated", timestamp: new Date().toISOString(), environment: "sandbox", data: { subject: "u_1", categories: ["labs"] } });

function delivery(options: { at?: Date; signWith?: string[] } = {}) {
  const at = options.at ?? new Date();
  const signature = (options.signWith ?? [secret]).map((one) => new Webhook(one).sign("evt_1", at, body)).join(" ");
  return { "webhook-id": "evt_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}

describe("verifyWebhook", () => {
  it("verifies a delivery signed by the Standard Webhooks library and returns its event", () => {
    const event = verifyWebhook(body, delivery(), secret);
    expect(event).toMatchObject({ id: "evt_1", type: "records.updated", data: { subject: "u_1" } });
    // Headers as a Headers object, the body as bytes: the same answer.
    expect(verifyWebhook(Buffer.from(body), new Headers(delivery()), secret).id).toBe("evt_1");
  });

  it("verifies during a rotation: two signatures, or two secrets to try", () => {
    expect(verifyWebhook(body, delivery({ signWith: [otherSecret, secret] }), secret).id).toBe("evt_1");
    expect(verifyWebhook(body, delivery(), [otherSecret, secret]).id).toBe("evt_1");
  });

  const tampered: [string, () => { payload: string; headers: Record<string, string>; secret: string }][] = [
    ["an edited body", () => ({ payload: body.replace("u_1", "u_2"), headers: delivery(), secret })],
    ["another secret", () => ({ payload: body, headers: delivery(), secret: otherSecret })],
    ["an edited webhook-id", () => ({ payload: body, headers: { ...delivery(), "webhook-id": "evt_2" }, secret })],
    ["a timestamp moved after signing", () => ({ payload: body, headers: { ...delivery(), "webhook-timestamp": String(Math.floor(Date.now() / 1000) + 1) }, secret })],
    ["a replay older than five minutes", () => ({ payload: body, headers: delivery({ at: new Date(Date.now() - 6 * 60_000) }), secret })],
    ["a timestamp six minutes ahead", () => ({ payload: body, headers: delivery({ at: new Date(Date.now() + 6 * 60_000) }), secret })],
    ["no signature header", () => ({ payload: body, headers: { ...delivery(), "webhook-signature": "" }, secret })],
    ["a signature of another scheme", () => ({ payload: body, headers: { ...delivery(), "webhook-signature": delivery()["webhook-signature"].replace("v1,", "v1a,") }, secret })],
  ];
  for (const [name, make] of tampered) {
    it(`refuses ${name}, as the Standard Webhooks library does`, () => {
      const { payload, headers, secret: key } = make();
      expect(() => verifyWebhook(payload, headers, key)).toThrow(WebhookVerificationError);
      expect(() => new Webhook(key).verify(payload, headers)).toThrow();
    });
  }

  it("honours a custom tolerance", () => {
    const headers = delivery({ at: new Date(Date.now() - 90_000) });
    expect(() => verifyWebhook(body, headers, secret, { toleranceSeconds: 60 })).toThrow(WebhookVerificationError);
    expect(verifyWebhook(body, headers, secret, { toleranceSeconds: 120 }).id).toBe("evt_1");
  });
});
