import { hkdfSync } from "node:crypto";
import { processState } from "@/lib/process-state";

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

const MIN_LENGTH = 32;

function derive(secret: string, purpose: KeyPurpose): Buffer {
  const id = `${purpose}\u0000${secret}`;
  const cache = processState("config.derived-keys", () => new Map<string, Buffer>());
  let key = cache.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "chartkey", purpose, 32));
    cache.set(id, key);
  }
  return key;
}

function currentSecret(): string {
  const secret = process.env.CHARTKEY_SECRET;
  if (!secret || secret.length < MIN_LENGTH) throw new Error(`CHARTKEY_SECRET must be set to at least ${MIN_LENGTH} characters`);
  return secret;
}

/**
 * The secret before the last rotation (docs/operations.md, "Rotating CHARTKEY_SECRET"), or null. While it is set,
 * everything signed or encrypted under it still verifies and decrypts; nothing new is made with it.
 */
function previousSecret(): string | null {
  const secret = process.env.CHARTKEY_SECRET_PREVIOUS;
  if (!secret) return null;
  if (secret.length < MIN_LENGTH) throw new Error(`CHARTKEY_SECRET_PREVIOUS must be at least ${MIN_LENGTH} characters when set`);
  return secret === currentSecret() ? null : secret;
}

/** The key new signatures and ciphertexts are made with: always the current secret's. */
export function derivedKey(purpose: KeyPurpose): Buffer {
  return derive(currentSecret(), purpose);
}

/**
 * The keys a signature or ciphertext may have been made with, current first, then the previous secret's while
 * CHARTKEY_SECRET_PREVIOUS is set: what verification and decryption try.
 */
export function acceptedKeys(purpose: KeyPurpose): Buffer[] {
  const previous = previousSecret();
  return previous === null ? [derivedKey(purpose)] : [derivedKey(purpose), derive(previous, purpose)];
}
