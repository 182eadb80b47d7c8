import { platformOrigin } from "@/lib/config";
import { db } from "@/lib/db";
import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n";

export type Recipient = { id: string; email: string; name: string; locale: Locale };

/** An account as email addresses it: its address, name and language (English when unset or unknown). */
export async function recipientOf(developerId: string): Promise<Recipient | null> {
  const developer = await db().developer.findUnique({ where: { id: developerId }, select: { id: true, email: true, name: true, locale: true } });
  if (!developer) return null;
  return { ...developer, locale: isLocale(developer.locale) ? developer.locale : DEFAULT_LOCALE };
}

/** An absolute link into this deployment: `origin` when the caller knows the one the person uses, else the configured one. */
export function linkTo(path: string, origin: string = platformOrigin()): string {
  return new URL(path, origin).toString();
}
