import { describe, expect, it } from "vitest";
import { EMAIL_TOKEN_LIFETIME_MS, EMAIL_TOKEN_PATTERN, emailTokenState, hashEmailToken } from "./email-tokens";

describe("emailed link tokens", () => {
  const now = new Date("2026-12-07T02:00:00Z");
  it("are valid until they expire or are used, whichever comes first", () => {
    expect(emailTokenState({ expiresAt: new Date(now.getTime() + 1), usedAt: null }, now)).toBe("valid");
    expect(emailTokenState({ expiresAt: now, usedAt: null }, now)).toBe("expired");
    expect(emailTokenState({ expiresAt: new Date(now.getTime() + 60_000), usedAt: new Date(now.getTime() - 1) }, now)).toBe("used");
  });
  it("are short-lived: a reset link 30 minutes, a verification link 48 hours", () => {
    expect(EMAIL_TOKEN_LIFETIME_MS.password_reset).toBe(30 * 60 * 1000);
    expect(EMAIL_TOKEN_LIFETIME_MS.email_verification).toBe(48 * 60 * 60 * 1000);
  });
  it("are 43 base64url characters, stored only as their SHA-256", () => {
    expect(EMAIL_TOKEN_PATTERN.test("a".repeat(43))).toBe(true);
    expect(EMAIL_TOKEN_PATTERN.test("a".repeat(42))).toBe(false);
    expect(EMAIL_TOKEN_PATTERN.test(`${"a".repeat(42)}/`)).toBe(false);
    expect(hashEmailToken("a".repeat(43))).toMatch(/^[0-9a-f]{64}$/);
  });
});
