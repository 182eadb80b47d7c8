import { describe, expect, it } from "vitest";
import { createTestApplication } from "@/test/factories";
import { rotateSigningSecret, signingSecretWindow } from "@/lib/applications";

describe("signingSecretWindow", () => {
  it("is null before any rotation, the old secret's expiry during its 24 hours, and null again after", async () => {
    const { application } = await createTestApplication();
    expect(await signingSecretWindow(application.id)).toBeNull();

    const rotatedAt = new Date();
    const { previousExpiresAt } = await rotateSigningSecret(application.id, rotatedAt);
    expect(previousExpiresAt.getTime() - rotatedAt.getTime()).toBe(24 * 60 * 60 * 1000);
    expect((await signingSecretWindow(application.id, new Date(rotatedAt.getTime() + 60_000)))?.toISOString()).toBe(previousExpiresAt.toISOString());
    expect(await signingSecretWindow(application.id, new Date(previousExpiresAt.getTime() + 1))).toBeNull();
  });

  it("is null for an unknown application", async () => {
    expect(await signingSecretWindow("app_doesnotexist")).toBeNull();
  });
});
