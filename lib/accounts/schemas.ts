import { z } from "zod";
import type { Locale } from "@/lib/i18n";

export const PASSWORD_MIN_LENGTH = 10;

const email = z.string().trim().toLowerCase().max(254).pipe(z.email({ error: "Enter a valid email address." }));

/** The sign-up form. */
export const signUpSchema = z.object({
  email,
  name: z.string().trim().min(1, "Enter your name.").max(100),
  password: z.string().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`).max(1024),
});
export type SignUpInput = z.input<typeof signUpSchema>;

/** The sign-in form (no length rule: old passwords must still be checkable, and the rule is not a hint). */
export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email address.").max(254),
  password: z.string().min(1, "Enter your password.").max(1024),
});
export type SignInInput = z.input<typeof signInSchema>;

/** "Forgot password": the address to email a reset link to. */
export const passwordResetRequestSchema = z.object({ email });
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestSchema>;

/** The reset page's form: the link's token and the new password (the sign-up rule). */
export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  password: z.string().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`).max(1024),
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

/** The account page's "language of your emails": one of the languages every email is written in. */
export const emailLanguageSchema = z.object({ locale: z.enum(["en", "es"] as const satisfies readonly Locale[], { error: "Choose English or Spanish." }) });
export type EmailLanguageInput = z.input<typeof emailLanguageSchema>;
