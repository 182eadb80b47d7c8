import { createHmac } from "node:crypto";
import { sha256Hex } from "@/lib/sha256";
import { derivedKey } from "@/lib/config";

/**
 * The secret token in a link handed to a patient (a session's connect URL, a receipt's private page). It is 32
 * bytes derived from the object's id under the deployment secret, so the API can show the same link again without
 * storing it; only its SHA-256 is stored, to find the object when the link is opened.
 */
export function linkToken(kind: "session" | "receipt", id: string): string {
  return createHmac("sha256", derivedKey("connect-links")).update(`${kind}:${id}`).digest("base64url");
}

/**
 * After a CHARTKEY_SECRET rotation the link shown for an object is the one under the new secret: `secret:rotate`
 * stores its hash as current and keeps the hash it replaces as an earlier one, which still opens the object.
 * Returns the hashes to store, or null when the stored one is already the current link's.
 */
export function rekeyedLinkHashes(kind: "session" | "receipt", id: string, stored: { current: string; earlier: string[] }): { current: string; earlier: string[] } | null {
  const current = linkTokenHash(linkToken(kind, id));
  if (stored.current === current) return null;
  return { current, earlier: [...new Set([...stored.earlier, stored.current])] };
}

export function linkTokenHash(token: string): string {
  return sha256Hex(token);
}
