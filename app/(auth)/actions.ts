"use server";

import { AuthError } from "next-auth";
import { registerDeveloper, SECOND_FACTOR_PATH, secondFactorExpected, signIn, ThrottledSignIn } from "@/lib/dashboard";
import { signInSchema, signUpSchema, type SignInInput, type SignUpInput } from "@/lib/accounts/schemas";
import { safeReturnPath } from "@/lib/session";

export type AuthFormResult = { error: string } | undefined;

function signInRefusal(error: AuthError): string {
  if (error instanceof ThrottledSignIn) return error.refusal;
  return "That email and password do not match an account.";
}

async function signInAndGo(email: string, password: string, next: unknown): Promise<AuthFormResult> {
  // An account with a second factor is asked for it next (the password alone opens a session that waits for it).
  const then = safeReturnPath(next);
  const redirectTo = (await secondFactorExpected(email)) ? `${SECOND_FACTOR_PATH}?${new URLSearchParams({ next: then })}` : then;
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    // A successful sign-in ends in Next's redirect, which must propagate; only next-auth's refusals are answers.
    if (error instanceof AuthError) return { error: signInRefusal(error) };
    throw error;
  }
}

export async function signInWithPassword(input: SignInInput, next?: string): Promise<AuthFormResult> {
  const parsed = signInSchema.safeParse(input);
  if (!parsed.success) return { error: "Enter your email address and password." };
  return signInAndGo(parsed.data.email, parsed.data.password, next);
}

export async function signUpWithPassword(input: SignUpInput, next?: string): Promise<AuthFormResult> {
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the form and try again." };
  const registered = await registerDeveloper(parsed.data);
  if (!registered.ok) return { error: registered.error };
  return signInAndGo(parsed.data.email, parsed.data.password, next);
}
