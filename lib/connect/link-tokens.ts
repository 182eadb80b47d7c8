import { createHash, createHmac } from "node:crypto";
import { derivedKey } from "@/lib/config";

/**
 * The secret token in a link handed to a patient (a session's connect URL, a receipt's private page). It is 32
 * bytes derived from the object's id under the deployment secret, so the API can show the same link again without
 * storing it; only its SHA-256 is stored, to find the object when the link is opened.
 */
export function linkToken(kind: "session" | "receipt", id: string): string {
  return createHmac("sha256", derivedKey("connect-links")).update(`${kind}:${id}`).digest("base64url");
}

export function linkTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
