import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createTestDeveloper } from "@/test/factories";
import { smtpSinkForFile } from "@/test/smtp-sink";
import { deliverEmail, listOutbox, sendSecurityNotice } from "@/lib/email";

const sink = smtpSinkForFile();

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("email", () => {
  it("sends over SMTP when CHARTKEY_SMTP_URL is set: plain text and HTML, in the account's language", async () => {
    vi.stubEnv("CHARTKEY_SMTP_URL", sink.url);
    vi.stubEnv("CHARTKEY_EMAIL_FROM", "Chartkey Test <mail@chartkey.test>");
    const developer = await createTestDeveloper();
    await db().developer.update({ where: { id: developer.id }, data: { locale: "es", name: "Ana" } });
    await sendSecurityNotice(developer.id, { kind: "second_factor_added", detail: { factor: "Aplicación de autenticación" } });
    const message = await sink.next(developer.email);
    expect(message.parsed.from?.value[0]).toMatchObject({ name: "Chartkey Test", address: "mail@chartkey.test" });
    expect(message.subject).toBe("Aviso de seguridad de su cuenta de Chartkey");
    expect(message.text).toContain("Hola, Ana:");
    expect(message.text).toContain("Se añadió un segundo factor a su cuenta: Aplicación de autenticación.");
    expect(message.html).toContain('<html lang="es">');
    expect(message.html).toMatch(/href="http:\/\/localhost:\d+\/dashboard\/account\/security"/);
    // Sent, so not kept.
    expect(await listOutbox({ to: developer.email })).toEqual([]);
  });

  it("keeps the message in the outbox without CHARTKEY_SMTP_URL, and a notice never throws when SMTP fails", async () => {
    vi.stubEnv("CHARTKEY_SMTP_URL", "");
    const developer = await createTestDeveloper();
    await sendSecurityNotice(developer.id, { kind: "password_changed" });
    const [kept] = await listOutbox({ to: developer.email });
    expect(kept).toMatchObject({ kind: "security_notice.password_changed", subject: "Security notice for your Chartkey account" });
    expect(kept!.text).toContain("The password of your account was changed");

    // A server that is not there: the notice is logged as failed, not thrown.
    vi.stubEnv("CHARTKEY_SMTP_URL", "smtp://127.0.0.1:9?connectionTimeout=2000");
    await expect(sendSecurityNotice(developer.id, { kind: "password_changed" })).resolves.toBeUndefined();
    // deliverEmail itself throws, for callers that must know.
    await expect(deliverEmail({ to: developer.email, subject: "s", text: "t", html: "<p>t</p>", kind: "test" })).rejects.toThrow();
    expect(await listOutbox({ to: developer.email })).toHaveLength(1);
  });
});
