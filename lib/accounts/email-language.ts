import { db } from "@/lib/db";
import type { Locale } from "@/lib/i18n";
import { emailLanguageSchema } from "./schemas";

export type EmailLanguageResult = { ok: true; locale: Locale } | { ok: false; error: string };

/**
 * The language of the account's emails from now on (its security notices, password reset and verification links,
 * invitations' and production decisions' emails): set at sign-up from the browser's language, changed on the
 * account page. Anything but a language the emails are written in is refused, never stored.
 */
export async function setEmailLanguage(developerId: string, input: unknown): Promise<EmailLanguageResult> {
  const parsed = emailLanguageSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "Choose English or Spanish." };
  const updated = await db().developer.updateMany({ where: { id: developerId }, data: { locale: parsed.data.locale } });
  if (updated.count === 0) return { ok: false, error: "That account no longer exists." };
  return { ok: true, locale: parsed.data.locale };
}

/** The language the account's emails are written in (English when unset or unknown). */
export async function emailLanguageOf(developerId: string): Promise<Locale> {
  const developer = await db().developer.findUnique({ where: { id: developerId }, select: { locale: true } });
  return developer?.locale === "es" ? "es" : "en";
}
