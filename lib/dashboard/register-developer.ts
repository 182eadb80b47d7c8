import { headers } from "next/headers";
import { AccountError, signUp, TooManyAttemptsError, type SignUpInput } from "@/lib/accounts";
import { headersClientAddress } from "@/lib/http";

export type RegisterResult = { ok: true; developerId: string } | { ok: false; error: string };

/**
 * A new dashboard account, from the address the platform's server recorded for this request (its password hash
 * counts against that address's throttle); a taken email address or a throttled address is an answer for the form,
 * not an exception.
 */
export async function registerDeveloper(input: SignUpInput): Promise<RegisterResult> {
  const address = headersClientAddress(await headers());
  try {
    const developer = await signUp(input, address);
    return { ok: true, developerId: developer.id };
  } catch (error) {
    if (error instanceof TooManyAttemptsError) return { ok: false, error: error.message };
    if (error instanceof AccountError && error.code === "email_taken") {
      return { ok: false, error: "An account with that email address already exists. Sign in instead." };
    }
    throw error;
  }
}
