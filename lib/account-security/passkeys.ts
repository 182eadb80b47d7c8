import { randomBytes } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { recordAudit } from "@/lib/audit";
import { db } from "@/lib/db";
import { endOtherSessions } from "./dashboard-sessions";
import { notifySecurity } from "./notify";
import { replaceRecoveryCodes } from "./recovery-codes";

type RegistrationResponse = Parameters<typeof verifyRegistrationResponse>[0]["response"];
type AuthenticationResponse = Parameters<typeof verifyAuthenticationResponse>[0]["response"];
type RegistrationOptions = Awaited<ReturnType<typeof generateRegistrationOptions>>;
type AuthenticationOptions = Awaited<ReturnType<typeof generateAuthenticationOptions>>;

/** Where the dashboard is reached: the relying party (the host name) and the exact origin the browser reports. */
export type RelyingParty = { id: string; origin: string };

const CHALLENGE_SECONDS = 5 * 60;
const MAX_PASSKEYS = 10;

/** A browser's response, as JSON, shaped enough to hand to @simplewebauthn (which checks the rest and throws). */
function credentialResponse<T>(response: unknown): T | null {
  if (typeof response === "string") {
    if (response.length > 20_000) return null;
    try {
      response = JSON.parse(response);
    } catch {
      return null;
    }
  }
  if (!response || typeof response !== "object") return null;
  const shape = response as { id?: unknown; rawId?: unknown; response?: unknown; type?: unknown };
  if (typeof shape.id !== "string" || typeof shape.rawId !== "string" || typeof shape.response !== "object" || shape.type !== "public-key") return null;
  return response as T;
}

async function storeChallenge(purpose: "register" | "authenticate", challenge: string, developerId: string | null): Promise<string> {
  const id = `wac_${randomBytes(18).toString("base64url")}`;
  await db().webAuthnChallenge.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  await db().webAuthnChallenge.create({ data: { id, developerId, purpose, challenge, expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000) } });
  return id;
}

/** Takes a challenge (single use: deleted as it is read); null when unknown, expired or not for this purpose/account. */
async function takeChallenge(id: unknown, purpose: "register" | "authenticate", developerId: string | null): Promise<string | null> {
  if (typeof id !== "string" || id.length > 64) return null;
  const deleted = await db().webAuthnChallenge.deleteMany({ where: { id, purpose, developerId, expiresAt: { gt: new Date() } } });
  if (deleted.count === 0) return null;
  // deleteMany does not answer the row: the challenge travels back in the options the browser signed, checked below.
  return id;
}

/**
 * Options for registering a passkey on the account (navigator.credentials.create through @simplewebauthn/browser):
 * a discoverable credential, so it also signs in without a password; the account's passkeys are excluded.
 */
export async function passkeyRegistrationOptions(developer: { id: string; email: string; name: string }, rp: RelyingParty): Promise<{ challengeId: string; options: RegistrationOptions }> {
  const existing = await db().passkey.findMany({ where: { developerId: developer.id }, select: { id: true, transports: true } });
  const options = await generateRegistrationOptions({
    rpName: "Chartkey",
    rpID: rp.id,
    userID: developer.id,
    userName: developer.email,
    userDisplayName: developer.name,
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: isoBase64URL.toBuffer(passkey.id), type: "public-key" as const })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const challengeId = await storeChallenge("register", options.challenge, developer.id);
  return { challengeId, options };
}

/**
 * Verifies and stores a new passkey (at most ten per account). The account's first second factor brings ten
 * recovery codes, answered once. Audited; the owner is told.
 */
export async function registerPasskey(input: { developerId: string; challengeId: unknown; response: unknown; name: unknown; rp: RelyingParty }): Promise<{ ok: true; recoveryCodes: string[] | null } | { ok: false; error: string }> {
  const response = credentialResponse<RegistrationResponse>(input.response);
  const name = typeof input.name === "string" && input.name.trim() ? input.name.trim().slice(0, 60) : "Passkey";
  const challengeRow = typeof input.challengeId === "string" ? await db().webAuthnChallenge.findUnique({ where: { id: input.challengeId } }) : null;
  if (!response || !challengeRow || !(await takeChallenge(input.challengeId, "register", input.developerId))) {
    return { ok: false, error: "The passkey could not be added. Try again." };
  }
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: challengeRow.challenge, expectedOrigin: input.rp.origin, expectedRPID: input.rp.id, requireUserVerification: false });
  } catch {
    return { ok: false, error: "The passkey could not be verified. Try again." };
  }
  if (!verified.verified || !verified.registrationInfo) return { ok: false, error: "The passkey could not be verified. Try again." };
  const info = verified.registrationInfo;
  const transports = Array.isArray(response.response.transports) ? response.response.transports.map(String).slice(0, 8) : [];
  const result = await db().$transaction(async (tx) => {
    if ((await tx.passkey.count({ where: { developerId: input.developerId } })) >= MAX_PASSKEYS) return null;
    const id = isoBase64URL.fromBuffer(info.credentialID);
    if (await tx.passkey.findUnique({ where: { id }, select: { id: true } })) return null;
    await tx.passkey.create({ data: { id, developerId: input.developerId, name, publicKey: Buffer.from(info.credentialPublicKey), counter: info.counter, transports } });
    const haveCodes = (await tx.recoveryCode.count({ where: { developerId: input.developerId, usedAt: null } })) > 0;
    const recoveryCodes = haveCodes ? null : await replaceRecoveryCodes(tx, input.developerId);
    await recordAudit(tx, { action: "auth.second_factor_add", actor: { type: "developer", id: input.developerId }, targetType: "passkey", targetId: id, after: { factor: "passkey", name } });
    return { recoveryCodes };
  });
  if (!result) return { ok: false, error: `That passkey is already registered, or the account has ${MAX_PASSKEYS} passkeys.` };
  await notifySecurity(input.developerId, "second_factor_added", { factor: `Passkey “${name}”` });
  return { ok: true, recoveryCodes: result.recoveryCodes };
}

/**
 * Options for signing in or confirming with a passkey: for a known account (second factor, step-up) its passkeys;
 * for a password-less sign-in (developerId null) any discoverable passkey of this site, with user verification.
 */
export async function passkeyAuthenticationOptions(developerId: string | null, rp: RelyingParty): Promise<{ challengeId: string; options: AuthenticationOptions }> {
  const passkeys = developerId ? await db().passkey.findMany({ where: { developerId }, select: { id: true } }) : [];
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: developerId ? "preferred" : "required",
    allowCredentials: passkeys.map((passkey) => ({ id: isoBase64URL.toBuffer(passkey.id), type: "public-key" as const })),
  });
  const challengeId = await storeChallenge("authenticate", options.challenge, developerId);
  return { challengeId, options };
}

/**
 * Verifies a passkey's assertion against a challenge this server issued (single use). For a known account, the
 * passkey must be one of its own; for a password-less sign-in, the account is the passkey's, and user verification
 * (a PIN or biometric on the authenticator) is required. Answers the account's id, or null. The signature counter
 * must move on where the authenticator keeps one (a cloned key is refused).
 */
export async function verifyPasskey(input: { developerId: string | null; challengeId: unknown; response: unknown; rp: RelyingParty }): Promise<string | null> {
  const response = credentialResponse<AuthenticationResponse>(input.response);
  const challengeRow = typeof input.challengeId === "string" ? await db().webAuthnChallenge.findUnique({ where: { id: input.challengeId } }) : null;
  if (!response || !challengeRow || !(await takeChallenge(input.challengeId, "authenticate", input.developerId))) return null;
  const passkey = await db().passkey.findUnique({ where: { id: response.id } });
  if (!passkey || (input.developerId !== null && passkey.developerId !== input.developerId)) return null;
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeRow.challenge,
      expectedOrigin: input.rp.origin,
      expectedRPID: input.rp.id,
      requireUserVerification: input.developerId === null,
      authenticator: { credentialID: isoBase64URL.toBuffer(passkey.id), credentialPublicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter },
    });
  } catch {
    return null;
  }
  if (!verified.verified) return null;
  const moved = await db().passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: verified.authenticationInfo.newCounter, lastUsedAt: new Date() },
  });
  return moved.count === 1 ? passkey.developerId : null;
}

/** The account's passkeys, for the Security page. */
export function listPasskeys(developerId: string) {
  return db().passkey.findMany({ where: { developerId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true, createdAt: true, lastUsedAt: true } });
}

/** Removes a passkey: the account's other sessions end; with no factor left, the recovery codes go too. Audited; the owner is told. */
export async function removePasskey(developerId: string, passkeyId: unknown, keepSessionId: string): Promise<boolean> {
  if (typeof passkeyId !== "string") return false;
  const removed = await db().$transaction(async (tx) => {
    const passkey = await tx.passkey.findFirst({ where: { id: passkeyId, developerId }, select: { name: true } });
    if (!passkey) return null;
    await tx.passkey.delete({ where: { id: passkeyId } });
    const totp = await tx.totpFactor.findUnique({ where: { developerId }, select: { confirmedAt: true } });
    if (!totp?.confirmedAt && (await tx.passkey.count({ where: { developerId } })) === 0) await tx.recoveryCode.deleteMany({ where: { developerId } });
    await recordAudit(tx, { action: "auth.second_factor_remove", actor: { type: "developer", id: developerId }, targetType: "passkey", targetId: passkeyId, after: { factor: "passkey", name: passkey.name } });
    return passkey;
  });
  if (!removed) return false;
  await endOtherSessions(developerId, keepSessionId, "second_factor_removed");
  await notifySecurity(developerId, "second_factor_removed", { factor: `Passkey “${removed.name}”` });
  return true;
}
