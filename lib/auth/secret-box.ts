import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { acceptedKeys, derivedKey } from "@/lib/config";

// v2 names the key it was sealed under (a fingerprint, not the key), so decryption picks the right one and the
// rotation command (scripts/secret-rotate.ts) sees what still needs re-encrypting. v1 (before rotation existed)
// carries no key id: every accepted key is tried.
const VERSION = "v2";
const LEGACY_VERSION = "v1";

/** A short public fingerprint of an encryption key: the first 8 characters of its SHA-256, base64url. */
function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 8);
}

/** AES-256-GCM encryption for secrets kept at rest (webhook signing secrets, SMART tokens, client secrets). */
export function encryptSecret(plaintext: string): string {
  const key = derivedKey("encryption-at-rest");
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, keyId(key), iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

function open(key: Buffer, iv: string, tag: string, ciphertext: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/**
 * Decrypts with the key the value was sealed under: the current secret's, or the previous one's while
 * CHARTKEY_SECRET_PREVIOUS is set. Throws when neither has it (the secret was rotated and the previous one removed
 * before `npm run secret:rotate` re-encrypted this value).
 */
export function decryptSecret(sealed: string): string {
  const parts = sealed.split(".");
  if (parts[0] === VERSION && parts.length === 5) {
    const [, id, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    const key = acceptedKeys("encryption-at-rest").find((candidate) => keyId(candidate) === id);
    if (!key) throw new Error("sealed under a CHARTKEY_SECRET this deployment no longer has");
    return open(key, iv, tag, ciphertext);
  }
  if (parts[0] === LEGACY_VERSION && parts.length === 4) {
    const [, iv, tag, ciphertext] = parts as [string, string, string, string];
    const keys = acceptedKeys("encryption-at-rest");
    for (const [index, key] of keys.entries()) {
      try {
        return open(key, iv, tag, ciphertext);
      } catch (error) {
        if (index === keys.length - 1) throw error;
      }
    }
  }
  throw new Error("not a sealed secret");
}

/** How every value sealed under the current secret begins; anything else is what `secret:rotate` re-encrypts. */
export function currentSealPrefix(): string {
  return `${VERSION}.${keyId(derivedKey("encryption-at-rest"))}.`;
}
