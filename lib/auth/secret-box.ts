import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { derivedKey } from "@/lib/config";

const VERSION = "v1";

/** AES-256-GCM encryption for secrets kept at rest (webhook signing secrets, SMART tokens, client secrets). */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey("encryption-at-rest"), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey("encryption-at-rest"), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
