import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { sendSecurityNotice } from "@/lib/email";
import { createTestDeveloper } from "@/test/factories";
import { smtpSinkForFile } from "@/test/smtp-sink";
import { emailLanguageOf, requestPasswordReset, setEmailLanguage } from "@/lib/accounts";

const sink = smtpSinkForFile();

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the language of an account's emails", () => {
  it("changed after sign-up, the next password reset and security notice come in it (through a real SMTP server)", async () => {
    vi.stubEnv("CHARTKEY_SMTP_URL", sink.url);
    const developer = await createTestDeveloper();
    await db().developer.update({ where: { id: developer.id }, data: { name: "Ana" } });
    expect(await emailLanguageOf(developer.id)).toBe("en");

    // Before: English.
    await (await requestPasswordReset({ email: developer.email, address: "198.51.100.70" })).sent;
    const english = await sink.next(developer.email);
    expect(english.subject).toBe("Reset your Chartkey password");
    expect(english.html).toContain('<html lang="en">');

    expect(await setEmailLanguage(developer.id, { locale: "es" })).toEqual({ ok: true, locale: "es" });
    expect(await emailLanguageOf(developer.id)).toBe("es");
    await (await requestPasswordReset({ email: developer.email, address: "198.51.100.71" })).sent;
    const spanish = await sink.next(developer.email);
    expect(spanish.subject).toBe("Restablezca su contraseña de Chartkey");
    expect(spanish.text).toContain("Hola, Ana:");
    expect(spanish.text).toMatch(/\/reset-password\//);
    expect(spanish.html).toContain('<html lang="es">');
    await sendSecurityNotice(developer.id, { kind: "password_changed" });
    expect((await sink.next(developer.email)).subject).toBe("Aviso de seguridad de su cuenta de Chartkey");

    // And back to English.
    expect(await setEmailLanguage(developer.id, { locale: "en" })).toEqual({ ok: true, locale: "en" });
    await sendSecurityNotice(developer.id, { kind: "password_changed" });
    expect((await sink.next(developer.email)).subject).toBe("Security notice for your Chartkey account");
  });

  it("refuses a language the emails are not written in, and leaves the account's as it was", async () => {
    const developer = await createTestDeveloper();
    await setEmailLanguage(developer.id, { locale: "es" });
    for (const input of [{ locale: "fr" }, { locale: "ES" }, { locale: "" }, {}, null, "es", { locale: ["es"] }]) {
      expect(await setEmailLanguage(developer.id, input)).toEqual({ ok: false, error: "Choose English or Spanish." });
    }
    expect(await emailLanguageOf(developer.id)).toBe("es");
    expect(await setEmailLanguage("dev_missing", { locale: "en" })).toMatchObject({ ok: false });
  });
});
