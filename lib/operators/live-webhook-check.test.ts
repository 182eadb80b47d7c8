import { describe, expect, it } from "vitest";
import { describeLiveWebhook, liveWebhookRefusal } from "./live-webhook-check";

describe("the live rules' verdict on a waiting application's webhook URL", () => {
  it("reads as the operator's view shows it", () => {
    expect(describeLiveWebhook({ url: null, verdict: "none" })).toBe("no webhook URL: live events will not be delivered");
    expect(describeLiveWebhook({ url: "https://example.com/hooks", verdict: "accepted" })).toBe("https://example.com/hooks — accepted for live");
    expect(describeLiveWebhook({ url: "http://example.com/hooks", verdict: "refused", reason: "live webhooks must use https" })).toBe(
      "http://example.com/hooks — refused: live webhooks must use https",
    );
  });

  it("blocks approval only for a refused URL; no URL at all may be approved", () => {
    expect(liveWebhookRefusal({ url: null, verdict: "none" })).toBeNull();
    expect(liveWebhookRefusal({ url: "https://example.com/hooks", verdict: "accepted" })).toBeNull();
    expect(liveWebhookRefusal({ url: "http://example.com/hooks", verdict: "refused", reason: "live webhooks must use https" })).toMatch(
      /^The application's webhook URL http:\/\/example\.com\/hooks is refused by the live rules \(live webhooks must use https\)/,
    );
  });
});
