import { Secret, TOTP } from "otpauth";
import { decryptSecret, encryptSecret } from "@/lib/auth";
import { db, type Tx } from "@/lib/db";
import { totpQrCode } from "./totp-qr";

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PERIOD = 30;
/** One step either side is accepted (a phone's clock a little off, a code typed as it changed). */
const WINDOW = 1;

function totpFor(secretBase32: string, label = "Chartkey"): TOTP {
  return new TOTP({ issuer: "Chartkey", label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/** The time step a code was accepted at, or null: `code` checked against `secretBase32` at `now`. */
export function matchingTotpStep(secretBase32: string, code: string, now: number = Date.now()): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secretBase32).validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Starts (or restarts) enrolling an authenticator app: a new 160-bit secret, kept encrypted and unconfirmed until a
 * code from the app confirms it. Refused while a confirmed one exists (remove it first). Answers the secret in
 * base32 for typing, the otpauth:// URI that phones open in their authenticator app, and that URI as a QR code (a PNG
 * data URL) for the app to scan.
 */
export async function beginTotpEnrolment(developer: { id: string; email: string }): Promise<{ secret: string; uri: string; qrCode: string } | null> {
  const existing = await db().totpFactor.findUnique({ where: { developerId: developer.id }, select: { confirmedAt: true } });
  if (existing?.confirmedAt) return null;
  const secret = new Secret({ size: 20 }).base32;
  await db().totpFactor.upsert({
    where: { developerId: developer.id },
    create: { developerId: developer.id, secretEncrypted: encryptSecret(secret) },
    update: { secretEncrypted: encryptSecret(secret), lastUsedStep: 0, createdAt: new Date() },
  });
  const uri = totpFor(secret, developer.email).toString();
  return { secret, uri, qrCode: await totpQrCode(uri) };
}

/**
 * Checks a code against the account's authenticator app (confirmed, or the one being enrolled when `enrolling`),
 * in the caller's transaction. A code is accepted once: its step must be later than the last one used, so a code
 * seen over someone's shoulder cannot be replayed in its 90 seconds.
 */
export async function acceptTotpCode(tx: Tx, developerId: string, code: string, enrolling = false): Promise<boolean> {
  const factor = await tx.totpFactor.findUnique({ where: { developerId } });
  if (!factor || (enrolling ? factor.confirmedAt !== null : factor.confirmedAt === null)) return false;
  const step = matchingTotpStep(decryptSecret(factor.secretEncrypted), code);
  if (step === null) return false;
  const used = await tx.totpFactor.updateMany({
    where: { developerId, lastUsedStep: { lt: step } },
    data: { lastUsedStep: step, ...(enrolling ? { confirmedAt: new Date() } : {}) },
  });
  return used.count === 1;
}
