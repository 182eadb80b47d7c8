import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { smtpSinkForFile } from "@/test/smtp-sink";
import {
  AccountError,
  emailVerified,
  PASSWORD_RESET_ACCOUNT_POLICY,
  previewPasswordReset,
  requestPasswordReset,
  requireVerifiedEmail,
  resetPasswordWithToken,
  sendVerificationEmail,
  signUp,
  TooManyAttemptsError,
  verifyEmail,
  verifySignIn,
} from "@/lib/accounts";

const sink = smtpSinkForFile();
let counter = 0;
const address = () => `198.18.0.${++counter}`;
const PASSWORD = "correct horse battery";

beforeAll(() => {
  vi.stubEnv("CHARTKEY_SMTP_URL", sink.url);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** The one link in a message to `to`, read from the real SMTP server. */
async function emailedLink(to: string, path: string): Promise<{ token: string; text: string; html: string; subject: string }> {
  const message = await sink.next(to);
  const match = new RegExp(`https?://[^\\s]+${path}/([A-Za-z0-9_-]+)`).exec(message.text);
  expect(match, message.text).not.toBeNull();
  expect(message.html).toContain(match![0]);
  return { token: match![1]!, text: message.text, html: message.html, subject: message.subject };
}

describe("password reset by emailed link", () => {
  it("emails a single-use link; the new password works, the old does not, and the reset is audited with the address", async () => {
    const account = await signUp({ email: "reset-me@example.test", name: "Rae", password: PASSWORD }, address());
    const from = address();
    const { sent } = await requestPasswordReset({ email: "Reset-Me@Example.test", address: from, origin: "https://dash.example" });
    await sent;
    const link = await emailedLink("reset-me@example.test", "/reset-password");
    expect(link.subject).toBe("Reset your Chartkey password");
    expect(link.text).toContain("https://dash.example/reset-password/");
    // Only the hash is stored.
    const stored = await db().emailToken.findFirstOrThrow({ where: { developerId: account.id, purpose: "password_reset" } });
    expect(stored.tokenHash).not.toContain(link.token);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(30 * 60 * 1000);
    expect(await previewPasswordReset(link.token)).toEqual({ state: "valid", email: "reset-me@example.test" });

    await resetPasswordWithToken({ token: link.token, password: "a brand new password", address: from });
    await expect(verifySignIn({ email: "reset-me@example.test", password: PASSWORD, address: address() })).rejects.toMatchObject({ code: "invalid_credentials" });
    expect(await verifySignIn({ email: "reset-me@example.test", password: "a brand new password", address: address() })).toMatchObject({ id: account.id });
    // Used once, never again.
    await expect(resetPasswordWithToken({ token: link.token, password: "yet another password", address: from })).rejects.toMatchObject({ code: "invalid_token" });
    expect(await previewPasswordReset(link.token)).toEqual({ state: "invalid" });
    // The link proved the mailbox.
    expect(await emailVerified(account.id)).toBe(true);
    const audit = await db().auditEntry.findMany({ where: { targetId: account.id, action: { in: ["auth.password_reset_request", "auth.password_reset"] } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((entry) => [entry.action, entry.actorLabel, entry.address])).toEqual([
      ["auth.password_reset_request", "reset-me@example.test", from],
      ["auth.password_reset", "reset-me@example.test", from],
    ]);
  });

  it("answers an unknown address exactly as a known one, and sends nothing", async () => {
    const outcome = await requestPasswordReset({ email: "nobody-here@example.test", address: address() });
    expect(await outcome.sent).toBeNull();
    await expect(sink.next("nobody-here@example.test", 500)).rejects.toThrow(/no email/);
  });

  it("refuses an expired link and every link but the newest", async () => {
    await signUp({ email: "twice@example.test", name: "Tw", password: PASSWORD }, address());
    await (await requestPasswordReset({ email: "twice@example.test", address: address() })).sent;
    const first = await emailedLink("twice@example.test", "/reset-password");
    await (await requestPasswordReset({ email: "twice@example.test", address: address() })).sent;
    const second = await emailedLink("twice@example.test", "/reset-password");
    await expect(resetPasswordWithToken({ token: first.token, password: "another password", address: address() })).rejects.toMatchObject({ code: "invalid_token" });
    const later = new Date(Date.now() + 31 * 60 * 1000);
    await expect(resetPasswordWithToken({ token: second.token, password: "another password", address: address() }, later)).rejects.toBeInstanceOf(AccountError);
    await expect(resetPasswordWithToken({ token: "not-a-token", password: "another password", address: address() })).rejects.toMatchObject({ code: "invalid_token" });
    await resetPasswordWithToken({ token: second.token, password: "another password", address: address() });
  });

  it("throttles requests per email from one address, whether or not the email has an account", async () => {
    const from = address();
    for (let i = 0; i < PASSWORD_RESET_ACCOUNT_POLICY.points; i++) await requestPasswordReset({ email: "ghost@example.test", address: from });
    await expect(requestPasswordReset({ email: "ghost@example.test", address: from })).rejects.toBeInstanceOf(TooManyAttemptsError);
    await expect(requestPasswordReset({ email: "ghost@example.test", address: address() })).resolves.toBeDefined();
  });
});

describe("email verification", () => {
  it("a new account is unverified until it follows the emailed link, in its language; the link works once", async () => {
    const account = await signUp({ email: "verify-me@example.test", name: "Vera", password: PASSWORD }, address(), { locale: "es" });
    expect(await emailVerified(account.id)).toBe(false);
    await expect(requireVerifiedEmail(account.id)).rejects.toMatchObject({ code: "email_unverified" });
    expect(await sendVerificationEmail(account.id, "https://dash.example")).toBe("sent");
    const link = await emailedLink("verify-me@example.test", "/verify-email");
    expect(link.subject).toBe("Confirme su dirección de correo para Chartkey");
    expect(link.html).toContain('<html lang="es">');
    const from = address();
    await verifyEmail({ token: link.token, address: from });
    expect(await emailVerified(account.id)).toBe(true);
    await expect(requireVerifiedEmail(account.id)).resolves.toBeUndefined();
    await expect(verifyEmail({ token: link.token, address: from })).rejects.toMatchObject({ code: "invalid_token" });
    expect(await sendVerificationEmail(account.id)).toBe("already");
    expect(await db().auditEntry.count({ where: { action: "auth.email_verify", targetId: account.id, address: from } })).toBe(1);
  });

  it("a link for an address the account no longer has does not verify it", async () => {
    const account = await signUp({ email: "moved@example.test", name: "Mo", password: PASSWORD }, address());
    await sendVerificationEmail(account.id);
    const link = await emailedLink("moved@example.test", "/verify-email");
    await db().developer.update({ where: { id: account.id }, data: { email: "moved-elsewhere@example.test" } });
    await expect(verifyEmail({ token: link.token, address: address() })).rejects.toMatchObject({ code: "invalid_token" });
    expect(await emailVerified(account.id)).toBe(false);
  });
});
