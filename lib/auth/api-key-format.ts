import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/lib/sha256";

export type Environment = "sandbox" | "live";

export const KEY_PREFIX: Record<Environment, string> = { sandbox: "ck_test_", live: "ck_live_" };

// Prefix + 32 random bytes in base64url (43 characters): ~256 bits, so the hash needs no salt or slow KDF.
const KEY_PATTERN = /^ck_(test|live)_[A-Za-z0-9_-]{43}$/;

export type GeneratedKey = { key: string; secretHash: string; displayPrefix: string };

export function generateApiKey(environment: Environment): GeneratedKey {
  const key = KEY_PREFIX[environment] + randomBytes(32).toString("base64url");
  return { key, secretHash: hashApiKey(key), displayPrefix: key.slice(0, 12) };
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The environment a well-formed key belongs to, or null for anything that is not a key of ours. */
export function keyEnvironment(key: string): Environment | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  return match[1] === "test" ? "sandbox" : "live";
}
