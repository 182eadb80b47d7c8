import { describe, expect, it } from "vitest";
import { validateWebhookUrl } from "@/lib/outbound";
import { deliveryFix } from "./delivery-fix";

/** The attempt log's error for a URL, as a delivery refused by its form logs it. */
function refusal(url: string, environment: "sandbox" | "live"): string {
  const checked = validateWebhookUrl(url, environment, false);
  if (checked.ok) throw new Error(`${url} was accepted`);
  return `refused: ${checked.reason}`;
}

describe("how the delivery log says to fix a refused URL", () => {
  it("names the fix for each refusal of the URL's form, in the rules of the delivery's environment", () => {
    expect(deliveryFix(refusal("http://hooks.example.com/x", "live"))).toBe("Set an https webhook URL on the Webhooks page, then resend.");
    expect(deliveryFix(refusal("ftp://hooks.example.com/x", "sandbox"))).toBe("Set an http or https webhook URL on the Webhooks page, then resend.");
    expect(deliveryFix(refusal("not a url", "live"))).toMatch(/^Set a complete webhook URL.*then resend\.$/);
    expect(deliveryFix(refusal("https://user:pw@hooks.example.com/x", "live"))).toMatch(/without a user name or password/);
    for (const url of ["https://127.0.0.1/x", "https://10.0.0.5/x", "https://localhost/x", "https://[::1]/x"]) {
      expect(deliveryFix(refusal(url, "live")), url).toMatch(/^Set a webhook URL on a public host .* then resend\.$/);
    }
  });

  it("says nothing for errors that are the receiver's to fix", () => {
    for (const error of [null, "HTTP 500", "redirect not followed", "could not deliver: no HTTP answer from the endpoint", "interrupted: the worker stopped during the attempt", "refused: something else"]) {
      expect(deliveryFix(error), String(error)).toBeNull();
    }
  });
});
