import { db } from "@/lib/db";

/** The second factors an account has enrolled, for the Security page and the sign-in's second step. */
export type EnrolledFactors = { totp: boolean; passkeys: number; recoveryCodesLeft: number };

export async function enrolledFactors(developerId: string): Promise<EnrolledFactors> {
  const [totp, passkeys, recoveryCodesLeft] = await Promise.all([
    db().totpFactor.findUnique({ where: { developerId }, select: { confirmedAt: true } }),
    db().passkey.count({ where: { developerId } }),
    db().recoveryCode.count({ where: { developerId, usedAt: null } }),
  ]);
  return { totp: Boolean(totp?.confirmedAt), passkeys, recoveryCodesLeft };
}

/** Whether the account has a second factor (a confirmed authenticator app or a passkey). */
export async function hasSecondFactor(developerId: string): Promise<boolean> {
  const factors = await enrolledFactors(developerId);
  return factors.totp || factors.passkeys > 0;
}
