import { createDeveloper } from "@/lib/applications";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n";
import { AccountError } from "./errors";
import { signUpSchema, type SignUpInput } from "./schemas";
import { claimPasswordCheck } from "./throttle";

export type DeveloperAccount = { id: string; email: string; name: string; createdAt: Date };

/**
 * Creates a dashboard account (email lowercased, argon2id password hash). A taken email is `email_taken`. The hash
 * counts against `address`'s password checks (./throttle.ts), like a sign-in. `locale` is the language of the
 * account's email (the browser's, at sign-up). The address starts unverified (./email-verification.ts).
 */
export async function signUp(input: SignUpInput, address: string, options: { locale?: Locale } = {}): Promise<DeveloperAccount> {
  const { email, name, password } = signUpSchema.parse(input);
  await claimPasswordCheck(address);
  try {
    const developer = await createDeveloper({ email, name, password, locale: options.locale ?? DEFAULT_LOCALE });
    return { id: developer.id, email: developer.email, name: developer.name, createdAt: developer.createdAt };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw new AccountError("email_taken", "An account with this email already exists; sign in instead.");
    throw error;
  }
}
