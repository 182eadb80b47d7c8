import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN_SECONDS, issueAccessToken, verifyAccessToken } from "./access-tokens";

const CLAIMS = { providerId: "riverbend-health", patientKey: "baseline-adult.primary", clientId: "chartkey-sandbox", scope: "launch/patient patient/*.read" };

describe("access tokens", () => {
  it("carry their claims under a signature, and expire after five minutes", () => {
    const now = Date.parse("2026-05-01T12:00:00Z");
    const { token, expiresIn } = issueAccessToken(CLAIMS, now);
    expect(expiresIn).toBe(ACCESS_TOKEN_SECONDS);
    expect(verifyAccessToken(token, now)).toMatchObject({ valid: true, claims: { ...CLAIMS, exp: now / 1000 + 300 } });
    expect(verifyAccessToken(token, now + 299_000).valid).toBe(true);
    expect(verifyAccessToken(token, now + 300_000)).toEqual({ valid: false, reason: "The access token has expired." });
  });

  it("refuse any change to the claims, and anything that is not one", () => {
    const { token } = issueAccessToken(CLAIMS);
    const [prefix, payload, signature] = token.split(".");
    const widened = Buffer.from(Buffer.from(payload!, "base64url").toString().replace("patient/*.read", "patient/*.write")).toString("base64url");
    expect(verifyAccessToken(`${prefix}.${widened}.${signature}`).valid).toBe(false);
    for (const bad of ["", "ehr1", "ehr1..", `${token}.x`, `ehr2.${payload}.${signature}`, "Bearer x"]) {
      expect(verifyAccessToken(bad).valid, bad).toBe(false);
    }
  });

  it("two tokens for the same grant in the same second differ", () => {
    expect(issueAccessToken(CLAIMS).token).not.toBe(issueAccessToken(CLAIMS).token);
  });
});
