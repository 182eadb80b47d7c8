import { describe, expect, it } from "vitest";
import { redactLinks } from "./mailer";
import { renderEmail, SECURITY_NOTICE_KINDS, type EmailTemplate } from "./templates";

const link = "https://chartkey.example/reset-password/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
const base = { name: "Ana <b>", address: "ana@example.test", link };

const templates: EmailTemplate[] = [
  { kind: "password_reset", ...base, minutes: 30 },
  { kind: "email_verification", ...base, hours: 48 },
  { kind: "invitation", address: "ana@example.test", link, inviter: "Bo", application: "Clinic <App>", role: "member", days: 7 },
  { kind: "production_request", ...base, application: "Clinic", requester: "bo@example.test" },
  { kind: "production_approved", ...base, application: "Clinic" },
  { kind: "production_refused", ...base, application: "Clinic", reason: "No privacy policy yet." },
  ...SECURITY_NOTICE_KINDS.map((notice): EmailTemplate => ({ kind: "security_notice", ...base, notice, detail: { device: "Chrome on Linux", address: "203.0.113.9", factor: "Authenticator app", remaining: "9", application: "Clinic" }, at: new Date("2026-12-07T01:02:03Z") })),
];

describe("email templates", () => {
  it.each(templates.map((template) => [template.kind === "security_notice" ? `security_notice.${template.notice}` : template.kind, template] as const))("%s: English and Spanish, plain text and HTML, the link written out in both", (_, template) => {
    const en = renderEmail("en", template);
    const es = renderEmail("es", template);
    for (const rendered of [en, es]) {
      expect(rendered.subject.length).toBeGreaterThan(5);
      expect(rendered.text).toContain(link);
      expect(rendered.html).toContain(`href="${link}"`);
      expect(rendered.text).not.toMatch(/\{[a-z]+\}/);
      // Names are text in the HTML body, never markup.
      expect(rendered.html).not.toContain("<b>");
      expect(rendered.html).not.toContain("<App>");
    }
    expect(en.subject).not.toBe(es.subject);
    expect(en.text).not.toBe(es.text);
    expect(en.html).toContain('<html lang="en">');
    expect(es.html).toContain('<html lang="es">');
  });

  it("says what each message is, in the recipient's language", () => {
    expect(renderEmail("en", templates[0]!).text).toMatch(/^Hello Ana <b>,\n\nSomeone asked to reset the password[\s\S]*expires in 30 minutes/);
    expect(renderEmail("es", templates[0]!).text).toMatch(/^Hola, Ana <b>:\n\nAlguien pidió restablecer la contraseña[\s\S]*caduca en 30 minutos/);
    expect(renderEmail("es", templates[2]!).text).toContain("Bo le invitó a unirse a la aplicación Clinic <App> en Chartkey como miembro.");
    expect(renderEmail("en", templates[5]!).text).toContain("No privacy policy yet.");
    const notice = templates.find((template) => template.kind === "security_notice" && template.notice === "new_device_sign_in")!;
    expect(renderEmail("en", notice).text).toContain("signed in from a new device: Chrome on Linux, network address 203.0.113.9.");
    expect(renderEmail("en", notice).text).toContain("When: 2026-12-07 01:02 (UTC).");
  });

  it("keeps a link's token out of a production log line", () => {
    expect(redactLinks(`Open:\n${link}\n`)).toBe("Open:\nhttps://chartkey.example/reset-password/abcdef…\n");
    expect(redactLinks("https://chartkey.example/dashboard/account/security")).toBe("https://chartkey.example/dashboard/account/security");
  });
});
