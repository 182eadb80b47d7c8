import { AccountError, signUp, type SignUpInput } from "@/lib/accounts";

export type RegisterResult = { ok: true; developerId: string } | { ok: false; error: string };

/** A new dashboard account; a taken email address is an answer for the form, not an exception. */
export async function registerDeveloper(input: SignUpInput): Promise<RegisterResult> {
  try {
    const developer = await signUp(input);
    return { ok: true, developerId: developer.id };
  } catch (error) {
    if (error instanceof AccountError && error.code === "email_taken") {
      return { ok: false, error: "An account with that email address already exists. Sign in instead." };
    }
    throw error;
  }
}
