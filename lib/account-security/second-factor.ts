import { claimPasswordCheck, TooManyAttemptsError } from "@/lib/accounts";
import { recordAudit, withAuditAddress } from "@/lib/audit";
import { db } from "@/lib/db";
import { endOtherSessions, markSecondFactorGiven } from "./dashboard-sessions";
import { notifySecurity } from "./notify";
import { recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode } from "./recovery-codes";
import { verifyPasskey, type RelyingParty } from "./passkeys";
import { acceptTotpCode } from "./totp";

export type SecondFactorAnswer = { ok: true; recoveryCodesLeft?: number } | { ok: false; error: string };

const WRONG_CODE = "That code is not right, or it was already used. Try the next code your app shows.";

/**
 * Checks a second factor typed into the sign-in's second step or a step-up (an authenticator app's code or a
 * recovery code) for the session `sessionId`. Each attempt counts against the address's password checks
 * (lib/accounts/throttle.ts), the limit a password guess counts against, so guessing six digits is as slow as
 * guessing a password. A right one marks the session as having given it now (signed in, fresh for step-up); a
 * recovery code is spent and the owner told. Every failure and every recovery code used is on the audit trail.
 */
export async function giveSecondFactor(input: {
  developerId: string;
  sessionId: string;
  method: "totp" | "recovery_code";
  code: string;
  address: string;
}): Promise<SecondFactorAnswer> {
  try {
    await claimPasswordCheck(input.address);
  } catch (error) {
    if (error instanceof TooManyAttemptsError) return { ok: false, error: error.message };
    throw error;
  }
  const actor = { type: "developer" as const, id: input.developerId };
  const accepted = await withAuditAddress(input.address, () =>
    db().$transaction(async (tx) => {
      const right = input.method === "totp" ? await acceptTotpCode(tx, input.developerId, input.code) : await spendRecoveryCode(tx, input.developerId, input.code);
      if (!right) {
        await recordAudit(tx, { action: "auth.second_factor_failed", actor, targetType: "developer", targetId: input.developerId, after: { method: input.method } });
        return false;
      }
      if (input.method === "recovery_code") {
        await recordAudit(tx, { action: "auth.recovery_code_use", actor, targetType: "developer", targetId: input.developerId });
      }
      await tx.dashboardSession.updateMany({ where: { id: input.sessionId, developerId: input.developerId, endedAt: null }, data: { secondFactorPending: false, secondFactorAt: new Date() } });
      return true;
    }),
  );
  if (!accepted) return { ok: false, error: input.method === "totp" ? WRONG_CODE : "That recovery code is not right, or it was already used." };
  if (input.method === "recovery_code") {
    const left = await recoveryCodesLeft(input.developerId);
    await notifySecurity(input.developerId, "recovery_code_used", { remaining: String(left) });
    return { ok: true, recoveryCodesLeft: left };
  }
  return { ok: true };
}

/**
 * Confirms an authenticator app being enrolled with its first code (which also counts as the second factor given
 * in this session). The account's first factor brings ten recovery codes, answered once to be shown once. Audited;
 * the owner is told by email.
 */
export async function confirmTotpEnrolment(developerId: string, sessionId: string, code: string): Promise<{ ok: true; recoveryCodes: string[] | null } | { ok: false; error: string }> {
  const result = await db().$transaction(async (tx) => {
    if (!(await acceptTotpCode(tx, developerId, code, true))) return null;
    const haveCodes = (await tx.recoveryCode.count({ where: { developerId, usedAt: null } })) > 0;
    const recoveryCodes = haveCodes ? null : await replaceRecoveryCodes(tx, developerId);
    await recordAudit(tx, { action: "auth.second_factor_add", actor: { type: "developer", id: developerId }, targetType: "developer", targetId: developerId, after: { factor: "totp" } });
    return { recoveryCodes };
  });
  if (!result) return { ok: false, error: WRONG_CODE };
  await markSecondFactorGiven(sessionId);
  await notifySecurity(developerId, "second_factor_added", { factor: "Authenticator app" });
  return { ok: true, recoveryCodes: result.recoveryCodes };
}

/**
 * Removes the authenticator app. The account's other sessions end (whoever added or used it elsewhere is out);
 * with no factor left, the recovery codes go too. Audited; the owner is told.
 */
export async function removeTotp(developerId: string, keepSessionId: string): Promise<boolean> {
  const removed = await db().$transaction(async (tx) => {
    const deleted = await tx.totpFactor.deleteMany({ where: { developerId } });
    if (deleted.count === 0) return false;
    if ((await tx.passkey.count({ where: { developerId } })) === 0) await tx.recoveryCode.deleteMany({ where: { developerId } });
    await recordAudit(tx, { action: "auth.second_factor_remove", actor: { type: "developer", id: developerId }, targetType: "developer", targetId: developerId, after: { factor: "totp" } });
    return true;
  });
  if (!removed) return false;
  await endOtherSessions(developerId, keepSessionId, "second_factor_removed");
  await notifySecurity(developerId, "second_factor_removed", { factor: "Authenticator app" });
  return true;
}

/** Ten new recovery codes for an account with a second factor (the old ones stop working), answered once. Audited. */
export async function regenerateRecoveryCodes(developerId: string): Promise<string[] | null> {
  return db().$transaction(async (tx) => {
    const totp = await tx.totpFactor.findUnique({ where: { developerId }, select: { confirmedAt: true } });
    if (!totp?.confirmedAt && (await tx.passkey.count({ where: { developerId } })) === 0) return null;
    const codes = await replaceRecoveryCodes(tx, developerId);
    await recordAudit(tx, { action: "auth.recovery_codes_regenerate", actor: { type: "developer", id: developerId }, targetType: "developer", targetId: developerId });
    return codes;
  });
}

/**
 * The second factor (or a step-up) given with one of the account's passkeys, counted against the address's password
 * checks as a typed code is; a refused one is on the audit trail.
 */
export async function givePasskeyFactor(input: { developerId: string; sessionId: string; challengeId: unknown; response: unknown; address: string; rp: RelyingParty }): Promise<SecondFactorAnswer> {
  try {
    await claimPasswordCheck(input.address);
  } catch (error) {
    if (error instanceof TooManyAttemptsError) return { ok: false, error: error.message };
    throw error;
  }
  const developerId = await verifyPasskey({ developerId: input.developerId, challengeId: input.challengeId, response: input.response, rp: input.rp });
  if (!developerId) {
    await withAuditAddress(input.address, () =>
      recordAudit(db(), { action: "auth.second_factor_failed", actor: { type: "developer", id: input.developerId }, targetType: "developer", targetId: input.developerId, after: { method: "passkey" } }),
    );
    return { ok: false, error: "The passkey was not accepted. Try again, or use another factor." };
  }
  await markSecondFactorGiven(input.sessionId);
  return { ok: true };
}
