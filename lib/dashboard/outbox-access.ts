import { DEVELOPMENT_EMAIL } from "@/lib/applications";
import { findOperator } from "@/lib/operators";

/**
 * Who may read the outbox (the email kept when no CHARTKEY_SMTP_URL is set, reset links included): the deployment's
 * operators and the development account `npm start` seeds (dev@chartkey.local, whose password only whoever started
 * the deployment has). No other account: an account that read its own verification email here would prove nothing.
 */
export async function canReadOutbox(developer: { id: string; email: string }): Promise<boolean> {
  if (developer.email === DEVELOPMENT_EMAIL) return true;
  return (await findOperator(developer.id)) !== null;
}
