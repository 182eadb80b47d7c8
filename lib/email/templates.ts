import { translatorFor, type Locale, type Translator } from "@/lib/i18n";

/** A rendered email: the subject, the plain-text body and the HTML body, in the recipient's language. */
export type RenderedEmail = { subject: string; text: string; html: string };

/** What each template needs. Links are absolute URLs; they appear in both bodies. */
export type EmailTemplate =
  | { kind: "password_reset"; name: string; address: string; link: string; minutes: number }
  | { kind: "email_verification"; name: string; address: string; link: string; hours: number }
  | { kind: "invitation"; address: string; link: string; inviter: string; application: string; role: "owner" | "member"; days: number }
  | { kind: "production_request"; name: string; address: string; link: string; application: string; requester: string }
  | { kind: "production_approved"; name: string; address: string; link: string; application: string }
  | { kind: "production_refused"; name: string; address: string; link: string; application: string; reason: string }
  | { kind: "security_notice"; name: string; address: string; link: string; notice: SecurityNoticeKind; detail: Record<string, string>; at: Date };

export const SECURITY_NOTICE_KINDS = ["new_device_sign_in", "second_factor_added", "second_factor_removed", "recovery_code_used", "signing_secret_rotated", "password_changed"] as const;
export type SecurityNoticeKind = (typeof SECURITY_NOTICE_KINDS)[number];

/** The parts every message is built from: paragraphs, one action link, paragraphs after it. */
type Parts = { subject: string; greeting: string | null; before: string[]; action: { label: string; url: string }; after: string[] };

function parts(t: Translator, template: EmailTemplate): Parts {
  const greeting = "name" in template ? t("email.greeting", { name: template.name }) : null;
  switch (template.kind) {
    case "password_reset":
      return {
        subject: t("email.passwordReset.subject"),
        greeting,
        before: [t("email.passwordReset.intro")],
        action: { label: t("email.passwordReset.action"), url: template.link },
        after: [t("email.passwordReset.expiry", { minutes: template.minutes }), t("email.passwordReset.ignore")],
      };
    case "email_verification":
      return {
        subject: t("email.verification.subject"),
        greeting,
        before: [t("email.verification.intro", { address: template.address })],
        action: { label: t("email.verification.action"), url: template.link },
        after: [t("email.verification.expiry", { hours: template.hours }), t("email.verification.ignore")],
      };
    case "invitation":
      return {
        subject: t("email.invitation.subject", { inviter: template.inviter, application: template.application }),
        greeting,
        before: [t("email.invitation.intro", { inviter: template.inviter, application: template.application, role: t(`email.roles.${template.role}`) })],
        action: { label: t("email.invitation.action"), url: template.link },
        after: [t("email.invitation.expiry", { address: template.address, days: template.days }), t("email.invitation.ignore")],
      };
    case "production_request":
      return {
        subject: t("email.productionRequest.subject", { application: template.application }),
        greeting,
        before: [t("email.productionRequest.intro", { requester: template.requester, application: template.application })],
        action: { label: t("email.productionRequest.action"), url: template.link },
        after: [],
      };
    case "production_approved":
      return {
        subject: t("email.productionApproved.subject", { application: template.application }),
        greeting,
        before: [t("email.productionApproved.intro", { application: template.application })],
        action: { label: t("email.productionApproved.action"), url: template.link },
        after: [],
      };
    case "production_refused":
      return {
        subject: t("email.productionRefused.subject", { application: template.application }),
        greeting,
        before: [t("email.productionRefused.intro", { application: template.application }), template.reason, t("email.productionRefused.after")],
        action: { label: t("email.productionRefused.action"), url: template.link },
        after: [],
      };
    case "security_notice": {
      const detail = { device: "", address: "", factor: "", remaining: "", application: "", ...template.detail };
      return {
        subject: t("email.security.subject"),
        greeting,
        before: [t(`email.security.${template.notice}`, detail), t("email.security.when", { time: template.at.toISOString().slice(0, 16).replace("T", " ") })],
        action: { label: t("email.security.action"), url: template.link },
        after: [t("email.security.notYou")],
      };
    }
  }
}

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Renders a template in `locale`: the same words in the plain-text and HTML bodies, the link written out in both. */
export function renderEmail(locale: Locale, template: EmailTemplate): RenderedEmail {
  const t = translatorFor(locale);
  const { subject, greeting, before, action, after } = parts(t, template);
  const footer = t("email.footer", { address: template.address });
  const fallback = t("email.linkFallback");
  const text = [...(greeting ? [greeting] : []), ...before, `${action.label}:\n${action.url}`, ...after, `--\n${footer}`].join("\n\n") + "\n";
  const paragraph = (value: string) => `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`;
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a;font-size:15px;line-height:1.5">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:24px">`,
    `<p style="margin:0 0 16px;font-weight:700;color:#115e59">Chartkey</p>`,
    ...(greeting ? [paragraph(greeting)] : []),
    ...before.map(paragraph),
    `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#115e59;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">${escapeHtml(action.label)}</a></p>`,
    `<p style="margin:0 0 16px;font-size:13px;color:#475569">${escapeHtml(fallback)}<br><a href="${escapeHtml(action.url)}" style="color:#115e59;word-break:break-all">${escapeHtml(action.url)}</a></p>`,
    ...after.map(paragraph),
    `<p style="margin:24px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p>`,
    `</div></body></html>`,
  ].join("\n");
  return { subject, text, html };
}
