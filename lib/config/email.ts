/**
 * Where the platform's email goes: `CHARTKEY_SMTP_URL` (nodemailer's SMTP URL, e.g.
 * `smtps://user:password@smtp.example.com:465` or `smtp://127.0.0.1:2525`) when set; unset, email is kept in the
 * dashboard's outbox and summarized in the log, so a deployment without a mail server still works.
 */
export function smtpUrl(): string | null {
  const configured = process.env.CHARTKEY_SMTP_URL?.trim();
  return configured ? configured : null;
}

/** The sender of the platform's email: `CHARTKEY_EMAIL_FROM`, else "Chartkey <no-reply@chartkey.local>". */
export function emailFrom(): string {
  return process.env.CHARTKEY_EMAIL_FROM?.trim() || "Chartkey <no-reply@chartkey.local>";
}
