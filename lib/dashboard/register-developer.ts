import { createDeveloper } from "@/lib/applications";
import type { SignUpInput } from "@/lib/session";

export type RegisterResult = { ok: true; developerId: string } | { ok: false; error: string };

/** A new dashboard account; a taken email address is an answer for the form, not an exception. */
export async function registerDeveloper(input: SignUpInput): Promise<RegisterResult> {
  try {
    const developer = await createDeveloper(input);
    return { ok: true, developerId: developer.id };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") return { ok: false, error: "An account with that email address already exists. Sign in instead." };
    throw error;
  }
}
