// Deliberately broken variants of the reference integration, one mistake each: the conformance suite proves that
// each fails exactly the one check its mistake breaks (test/conformance-reference.int.test.ts).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { Chartkey, verifyWebhook } from "@chartkey/sdk";
import { ReferenceIntegration, type WebhookEvent } from "./integration";

/** Turns the SDK's retries off and retries a 429 after a fixed 100 ms instead of Retry-After. Fails `retry_after`. */
export class IgnoresRetryAfter extends ReferenceIntegration {
  protected override client(): Chartkey {
    const fixedDelay: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(request.clone());
        if (response.status !== 429 || attempt >= 5) return response;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    return new Chartkey({ apiKey: this.options.apiKey, baseUrl: this.options.apiBase, maxRetries: 0, fetch: fixedDelay });
  }
}

/**
 * Never lets a subject go: consent.revoked is one more reason to sync it (after a 2 s debounce), and a 404 is taken
 * for a passing fault, so polling goes on. Fails `stops_on_revocation`.
 */
export class ReadsAfterRevocation extends ReferenceIntegration {
  protected override handle(event: WebhookEvent) {
    const subject = event.data.subject;
    if (event.type !== "consent.revoked" || typeof subject !== "string") return super.handle(event);
    this.enqueue(subject, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await this.initialSync(subject, this.options.categories);
    });
    return { status: 200, text: "ok" };
  }

  protected override onConsentEnded(): void {}

  protected override async pollReceipt(): Promise<void> {}
}

/** Checks the signature by hand and forgets the timestamp tolerance, so a replayed old delivery passes. Fails `webhook_corrupted`. */
export class AcceptsStaleTimestamp extends ReferenceIntegration {
  protected override verify(body: string, headers: http.IncomingHttpHeaders): WebhookEvent {
    const key = Buffer.from(this.options.signingSecret.replace(/^whsec_/, ""), "base64");
    const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest();
    const valid = String(headers["webhook-signature"] ?? "")
      .split(" ")
      .map((entry) => Buffer.from(entry.split(",")[1] ?? "", "base64"))
      .some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
    if (!valid) throw new Error("bad signature");
    return JSON.parse(body) as WebhookEvent;
  }
}

/** Answers 400 to event types it does not handle, so new kinds of events are lost. Fails `webhook_valid`. */
export class RejectsUnknownEvents extends ReferenceIntegration {
  protected override handle(event: WebhookEvent) {
    if (!["consent.granted", "consent.revoked", "consent.expired", "records.updated"].includes(event.type)) return { status: 400, text: "unknown event type" };
    return super.handle(event);
  }
}

/** Answers 409 to a webhook-id it has seen, so a retry after a lost answer looks failed. Fails `webhook_redelivery`. */
export class RejectsRedelivery extends ReferenceIntegration {
  protected override duplicate() {
    return { status: 409, text: "duplicate" };
  }
}

/** On records.updated, reads the whole category again instead of the change feed. Fails `change_feed`. */
export class RereadsWholeCategory extends ReferenceIntegration {
  protected override async syncChanges(subject: string, categories: string[]): Promise<void> {
    for (const category of categories) await this.sync(subject, category, null);
  }
}

/**
 * Configured with another application's signing secret, so every delivery fails verification and is answered 400,
 * valid ones included; it learns of the session, changes and the revocation only by polling. Fails `webhook_valid`
 * (needs `pollIntervalMs`).
 */
export class RejectsEveryWebhook extends ReferenceIntegration {
  private readonly wrongSecret = `whsec_${randomBytes(24).toString("base64")}`;

  protected override verify(body: string, headers: http.IncomingHttpHeaders): WebhookEvent {
    return verifyWebhook(body, headers, this.wrongSecret);
  }
}
