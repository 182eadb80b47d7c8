import { headers } from "next/headers";
import { AccountError, sendVerificationEmail, signUp, TooManyAttemptsError, type SignUpInput } from "@/lib/accounts";
import { headersClientAddress } from "@/lib/http";
import { negotiateLocale } from "@/lib/i18n";
import { log } from "@/lib/log";
import { dashboardOrigin } from "./request-origin";

export type RegisterResult = { ok: true; developerId: string } | { ok: false; error: string };

/**
 * A new dashboard account, from the address the platform's server recorded for this request (its password hash
 * counts against that address's throttle); a taken email address or a throttled address is an answer for the form,
 * not an exception. The account's language is the browser's (Accept-Language); the address gets its confirmation
 * link by email.
 */
export async function registerDeveloper(input: SignUpInput): Promise<RegisterResult> {
  const requestHeaders = await headers();
  const address = headersClientAddress(requestHeaders);
  try {
    const developer = await signUp(input, address, { locale: negotiateLocale({ acceptLanguage: requestHeaders.get("accept-language") }) });
    // The confirmation link; the account exists either way (the dashboard's banner sends another).
    await sendVerificationEmail(developer.id, await dashboardOrigin()).catch((error: unknown) =>
      log.error({ event: "email.verification_failed", err: (error as Error).name, message: (error as Error).message }, "verification email not sent at sign-up"),
    );
    return { ok: true, developerId: developer.id };
  } catch (error) {
    if (error instanceof TooManyAttemptsError) return { ok: false, error: error.message };
    if (error instanceof AccountError && error.code === "email_taken") {
      return { ok: false, error: "An account with that email address already exists. Sign in instead." };
    }
    throw error;
  }
}
