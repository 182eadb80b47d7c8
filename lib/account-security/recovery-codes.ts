import { createHash, randomBytes, randomUUID } from "node:crypto";
import { db, type Tx } from "@/lib/db";

/** How many recovery codes an account gets at a time. */
export const RECOVERY_CODE_COUNT = 10;

// Crockford-like base32 without I, L, O, U: read aloud and typed back without confusion.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A code as the person types it: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

/** The stored form: SHA-256 of the normalized code (each code is 50 random bits, beyond guessing; no salt needed). */
export function recoveryCodeHash(code: string): string {
  return createHash("sha256").update(`chartkey-recovery:${normalizeRecoveryCode(code)}`).digest("hex");
}

/** One new code, `XXXXX-XXXXX`: 10 characters of a 32-letter alphabet. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (byte) => ALPHABET[byte & 31]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/**
 * Replaces the account's recovery codes with ten new ones, in the caller's transaction: the old ones stop working.
 * The codes are answered once, to be shown once; only their hashes are kept.
 */
export async function replaceRecoveryCodes(tx: Tx, developerId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.recoveryCode.deleteMany({ where: { developerId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ id: `rc_${randomUUID()}`, developerId, codeHash: recoveryCodeHash(code) })) });
  return codes;
}

/** Spends one recovery code of the account: true once, false for an unknown or used code (atomic: two racing uses spend it once). */
export async function spendRecoveryCode(tx: Tx, developerId: string, code: string): Promise<boolean> {
  const spent = await tx.recoveryCode.updateMany({ where: { developerId, codeHash: recoveryCodeHash(code), usedAt: null }, data: { usedAt: new Date() } });
  return spent.count === 1;
}

/** The number of recovery codes the account has left. */
export function recoveryCodesLeft(developerId: string): Promise<number> {
  return db().recoveryCode.count({ where: { developerId, usedAt: null } });
}
