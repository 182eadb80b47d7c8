import { hkdfSync } from "node:crypto";

const cache = new Map<string, Buffer>();

/**
 * A 32-byte key for one purpose, derived with HKDF from the deployment's CHARTKEY_SECRET, so one configured
 * secret yields independent keys for cursor signing, encryption at rest and so on. `npm start` writes a random
 * CHARTKEY_SECRET into .env.local on first run; production sets it explicitly.
 */
export type KeyPurpose =
  | "cursor-signing"
  | "encryption-at-rest"
  | "report-tokens"
  // Patients' private links: connect URLs and receipt pages.
  | "connect-links"
  // The synthetic health systems: their access-token signatures and the sandbox client secrets they issue.
  | "ehr-access-token"
  | "ehr-client-secret";

export function derivedKey(purpose: KeyPurpose): Buffer {
  const cached = cache.get(purpose);
  if (cached) return cached;
  const secret = process.env.CHARTKEY_SECRET;
  if (!secret || secret.length < 32) {
    throw new Error("CHARTKEY_SECRET must be set to at least 32 characters");
  }
  const key = Buffer.from(hkdfSync("sha256", secret, "chartkey", purpose, 32));
  cache.set(purpose, key);
  return key;
}
