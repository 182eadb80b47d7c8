import { createHash, randomBytes } from "node:crypto";

/** A fresh single-use secret (authorization code, refresh token): 32 random bytes, base64url. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored of an opaque token: its SHA-256, so a database read never yields a usable code or token. */
export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
