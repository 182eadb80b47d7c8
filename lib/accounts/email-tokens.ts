import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { sha256Hex } from "@/lib/sha256";

export type EmailTokenPurpose = "password_reset" | "email_verification";

/** How long an emailed link works: a reset link half an hour, a verification link two days. */
export const EMAIL_TOKEN_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  password_reset: 30 * 60 * 1000,
  email_verification: 48 * 60 * 60 * 1000,
};

/** The token as a link carries it: 32 random bytes, base64url (43 characters). */
export const EMAIL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type EmailTokenRow = { id: string; developerId: string; email: string; purpose: EmailTokenPurpose; expiresAt: Date; usedAt: Date | null };
export type EmailTokenState = "valid" | "used" | "expired";

/** A stored token's state at `now`: used once is used for good; past its expiry it is expired. */
export function emailTokenState(row: Pick<EmailTokenRow, "expiresAt" | "usedAt">, now = new Date()): EmailTokenState {
  if (row.usedAt) return "used";
  return row.expiresAt <= now ? "expired" : "valid";
}

export function hashEmailToken(token: string): string {
  return sha256Hex(token);
}

/**
 * A new single-use token for the account, stored as its SHA-256 only; earlier unused tokens of the same purpose are
 * used up (only the newest link works). Returns the token for the link.
 */
export async function issueEmailToken(tx: Tx, input: { developerId: string; email: string; purpose: EmailTokenPurpose }, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  await tx.emailToken.updateMany({ where: { developerId: input.developerId, purpose: input.purpose, usedAt: null }, data: { usedAt: now } });
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + EMAIL_TOKEN_LIFETIME_MS[input.purpose]);
  await tx.emailToken.create({ data: { id: newId("etk_"), developerId: input.developerId, email: input.email, purpose: input.purpose, tokenHash: hashEmailToken(token), createdAt: now, expiresAt } });
  return { token, expiresAt };
}

/** The token's row, locked for the transaction (two uses at once: the second finds it used), or null. */
export async function lockEmailToken(tx: Tx, token: string, purpose: EmailTokenPurpose): Promise<EmailTokenRow | null> {
  if (!EMAIL_TOKEN_PATTERN.test(token)) return null;
  const rows = await tx.$queryRaw<EmailTokenRow[]>`
    SELECT "id", "developerId", "email", "purpose"::text AS "purpose", "expiresAt", "usedAt"
    FROM "EmailToken" WHERE "tokenHash" = ${hashEmailToken(token)} AND "purpose" = ${purpose}::"EmailTokenPurpose" FOR UPDATE`;
  return rows[0] ?? null;
}
