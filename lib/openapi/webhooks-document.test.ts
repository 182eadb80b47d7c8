import { describe, expect, it } from "vitest";
import { getPlatformOpenApi } from "./platform-document";

describe("the platform document's webhooks", () => {
  it("lists every event kind the platform sends, subject.deleted among them, as the body of the event webhook", () => {
    const document = getPlatformOpenApi();
    const body = document.webhooks?.event?.post.requestBody.content["application/json"]?.schema;
    expect(body).toEqual({ $ref: "#/components/schemas/WebhookEvent" });
    const event = document.components.schemas.WebhookEvent as { properties: { type: { enum: string[] } }; required: string[] };
    expect(event.properties.type.enum).toEqual(["consent.granted", "consent.revoked", "consent.expired", "records.updated", "sync.failed", "subject.deleted", "webhook.test"]);
    expect(event.required).toEqual(["id", "type", "timestamp", "environment", "data"]);
  });
});
