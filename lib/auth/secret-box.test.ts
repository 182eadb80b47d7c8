import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentSealPrefix, decryptSecret, encryptSecret } from "./secret-box";

const OLD = "old-secret-".padEnd(40, "o");
const NEW = "new-secret-".padEnd(40, "n");

/** A value sealed in the format before key ids (v1), under `secret`. */
function sealedV1(secret: string, plaintext: string): string {
  const key = Buffer.from(hkdfSync("sha256", secret, "chartkey", "encryption-at-rest", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

afterEach(() => vi.unstubAllEnvs());

describe("the secret box across a CHARTKEY_SECRET rotation", () => {
  it("seals under the current secret and names its key; the previous secret still opens what it sealed", () => {
    vi.stubEnv("CHARTKEY_SECRET", OLD);
    const underOld = encryptSecret("whsec_old");
    const legacy = sealedV1(OLD, "token-v1");
    expect(underOld.startsWith(currentSealPrefix())).toBe(true);

    vi.stubEnv("CHARTKEY_SECRET", NEW);
    vi.stubEnv("CHARTKEY_SECRET_PREVIOUS", OLD);
    const underNew = encryptSecret("whsec_new");
    expect(underNew.startsWith(currentSealPrefix())).toBe(true);
    expect(underOld.startsWith(currentSealPrefix())).toBe(false);
    expect([decryptSecret(underOld), decryptSecret(legacy), decryptSecret(underNew)]).toEqual(["whsec_old", "token-v1", "whsec_new"]);

    vi.stubEnv("CHARTKEY_SECRET_PREVIOUS", "");
    expect(decryptSecret(underNew)).toBe("whsec_new");
    expect(() => decryptSecret(underOld)).toThrow(/no longer has/);
    expect(() => decryptSecret(legacy)).toThrow();
    expect(() => decryptSecret("v2.garbage")).toThrow(/not a sealed secret/);
  });

  it("refuses a previous secret too short to be one", () => {
    vi.stubEnv("CHARTKEY_SECRET", NEW);
    vi.stubEnv("CHARTKEY_SECRET_PREVIOUS", "short");
    expect(() => decryptSecret(sealedV1(NEW, "x"))).toThrow(/CHARTKEY_SECRET_PREVIOUS/);
  });
});
