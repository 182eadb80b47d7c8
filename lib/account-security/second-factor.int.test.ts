import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestDeveloper } from "@/test/factories";
import { totpCode } from "@/test/totp-reference";
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  enrolledFactors,
  giveSecondFactor,
  hasSecondFactor,
  liveDashboardSession,
  regenerateRecoveryCodes,
  removeTotp,
  startDashboardSession,
} from "@/lib/account-security";


let counter = 0;
const address = () => `198.51.100.${++counter}`;

async function signedInWithTotp() {
  const developer = await createTestDeveloper();
  const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.1", secondFactorPending: false });
  const started = (await beginTotpEnrolment(developer))!;
  const confirmed = await confirmTotpEnrolment(developer.id, session.id, totpCode(started.secret, -1));
  if (!confirmed.ok) throw new Error(confirmed.error);
  return { developer, session, secret: started.secret, recoveryCodes: confirmed.recoveryCodes! };
}

describe("authenticator app and recovery codes", () => {
  it("enrols with a code from an independent RFC 6238 implementation; ten recovery codes, stored hashed; audited", async () => {
    const developer = await createTestDeveloper();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.1", secondFactorPending: false });
    const started = (await beginTotpEnrolment(developer))!;
    expect(started.uri).toMatch(/^otpauth:\/\/totp\/Chartkey:.+\?.*secret=/);
    expect(await hasSecondFactor(developer.id)).toBe(false);
    expect(await confirmTotpEnrolment(developer.id, session.id, "000000")).toMatchObject({ ok: false });
    const confirmed = await confirmTotpEnrolment(developer.id, session.id, totpCode(started.secret));
    expect(confirmed.ok).toBe(true);
    const codes = (confirmed as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    const stored = await db().recoveryCode.findMany({ where: { developerId: developer.id } });
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes.some((code) => row.codeHash.includes(code) || code.includes(row.codeHash))).toBe(false);
    expect(await hasSecondFactor(developer.id)).toBe(true);
    expect(await beginTotpEnrolment(developer)).toBeNull();
    const factorRow = await db().totpFactor.findUniqueOrThrow({ where: { developerId: developer.id } });
    expect(factorRow.secretEncrypted).not.toContain(started.secret);
    expect(await db().auditEntry.count({ where: { action: "auth.second_factor_add", actorId: developer.id } })).toBe(1);
    // The owner is told by email (lib/email; with no SMTP server configured, the outbox).
    expect(await db().outboxEmail.count({ where: { developerId: developer.id, kind: "security_notice.second_factor_added" } })).toBe(1);
  });

  it("a pending sign-in is completed by a code, a code is refused when replayed, and failures are audited", async () => {
    const { developer, secret } = await signedInWithTotp();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.1", secondFactorPending: true });
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "totp", code: "123456", address: address() })).toMatchObject({ ok: false });
    expect((await liveDashboardSession(session.id, developer.id))!.secondFactorPending).toBe(true);
    const code = totpCode(secret, 1);
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "totp", code, address: address() })).toEqual({ ok: true });
    const after = (await liveDashboardSession(session.id, developer.id))!;
    expect(after.secondFactorPending).toBe(false);
    expect(after.secondFactorAt).not.toBeNull();
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "totp", code, address: address() })).toMatchObject({ ok: false });
    expect(await db().auditEntry.count({ where: { action: "auth.second_factor_failed", actorId: developer.id } })).toBe(2);
  });

  it("a recovery code works once, in any case and spacing; its use is audited", async () => {
    const { developer, recoveryCodes } = await signedInWithTotp();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.1", secondFactorPending: true });
    const typed = recoveryCodes[3]!.toLowerCase().replace("-", " ");
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "recovery_code", code: typed, address: address() })).toEqual({ ok: true, recoveryCodesLeft: 9 });
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "recovery_code", code: recoveryCodes[3]!, address: address() })).toMatchObject({ ok: false });
    expect(await db().auditEntry.count({ where: { action: "auth.recovery_code_use", actorId: developer.id } })).toBe(1);
    expect(await db().outboxEmail.count({ where: { developerId: developer.id, kind: "security_notice.recovery_code_used" } })).toBe(1);
    expect((await enrolledFactors(developer.id)).recoveryCodesLeft).toBe(9);
    const fresh = (await regenerateRecoveryCodes(developer.id))!;
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "recovery_code", code: recoveryCodes[4]!, address: address() })).toMatchObject({ ok: false });
    expect(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "recovery_code", code: fresh[0]!, address: address() })).toMatchObject({ ok: true });
  });

  it("failed codes share the address's password-check limit", async () => {
    const { developer } = await signedInWithTotp();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: "test", address: "198.51.100.1", secondFactorPending: true });
    const from = "192.0.2.77";
    const answers = [];
    for (let attempt = 0; attempt < 31; attempt++) answers.push(await giveSecondFactor({ developerId: developer.id, sessionId: session.id, method: "totp", code: "000000", address: from }));
    expect(answers.slice(0, 30).every((answer) => !answer.ok && !/Too many|try again in/i.test(answer.error))).toBe(true);
    expect(answers[30]).toMatchObject({ ok: false, error: expect.stringMatching(/again/i) });
  });

  it("removing the app ends the other sessions, drops the codes and is audited", async () => {
    const { developer, session } = await signedInWithTotp();
    const { session: other } = await startDashboardSession({ developerId: developer.id, userAgent: "other", address: "198.51.100.9", secondFactorPending: false });
    expect(await removeTotp(developer.id, session.id)).toBe(true);
    expect(await liveDashboardSession(other.id, developer.id)).toBeNull();
    expect(await liveDashboardSession(session.id, developer.id)).not.toBeNull();
    expect(await enrolledFactors(developer.id)).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    expect(await db().auditEntry.count({ where: { action: "auth.second_factor_remove", actorId: developer.id } })).toBe(1);
    expect(await removeTotp(developer.id, session.id)).toBe(false);
  });
});
