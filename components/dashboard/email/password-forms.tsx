"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { confirmEmailAction, forgotPasswordAction, resetPasswordAction } from "@/app/(auth)/email-actions";
import { passwordResetRequestSchema, PASSWORD_MIN_LENGTH, type PasswordResetRequestInput } from "@/lib/accounts/schemas";
import { AuthDone, AuthFormFrame } from "@/components/dashboard/auth-form-frame";
import { Field } from "@/components/ui/field";

/** "Forgot password": asks for the address; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<PasswordResetRequestInput>({ resolver: zodResolver(passwordResetRequestSchema), defaultValues: { email: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await forgotPasswordAction(values);
    if (result.ok) setSentTo(values.email.trim());
    else setRefusal(result.error);
  });
  if (sentTo) {
    return (
      <AuthDone href="/sign-in" linkLabel="Back to sign in">
        If {sentTo} has a Chartkey account, we sent it a link to choose a new password. The link works once, for 30 minutes. Check your inbox and spam folder.
      </AuthDone>
    );
  }
  return (
    <AuthFormFrame
      onSubmit={submit}
      refusal={refusal}
      pending={isSubmitting}
      label="Email me a reset link"
      pendingLabel="Sending…"
      footer={{ prompt: "Remembered it?", href: "/sign-in", link: "Sign in" }}
    >
      <Field label="Email address" type="email" autoComplete="email" error={errors.email?.message} {...form.register("email")} />
    </AuthFormFrame>
  );
}

const newPasswordSchema = z
  .object({
    password: z.string().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`).max(1024),
    confirm: z.string(),
  })
  .refine((values) => values.password === values.confirm, { path: ["confirm"], message: "The two passwords differ." });

/** The reset page's form: a new password, twice. Success ends every session and leads to sign in. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<z.input<typeof newPasswordSchema>>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: "", confirm: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await resetPasswordAction({ token, password: values.password });
    if (result && !result.ok) setRefusal(result.error);
  });
  return (
    <AuthFormFrame onSubmit={submit} refusal={refusal} pending={isSubmitting} label="Set the new password" pendingLabel="Saving…">
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters. Every session of the account is signed out."
        error={errors.password?.message}
        {...form.register("password")}
      />
      <Field label="Repeat the new password" type="password" autoComplete="new-password" error={errors.confirm?.message} {...form.register("confirm")} />
    </AuthFormFrame>
  );
}

/** The emailed confirmation link's page: one button confirms (a link alone changes nothing, so a mail scanner's visit does not). */
export function ConfirmEmailForm({ token }: { token: string }) {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  if (outcome?.ok) {
    return (
      <AuthDone href="/dashboard" linkLabel="Go to the dashboard">
        {outcome.text} You can now create live keys and invite team members.
      </AuthDone>
    );
  }
  return (
    <AuthFormFrame
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        const result = await confirmEmailAction(token);
        setPending(false);
        setOutcome(result.ok ? { ok: true, text: result.message } : { ok: false, text: result.error });
      }}
      refusal={outcome && !outcome.ok ? outcome.text : null}
      pending={pending}
      label="Confirm my email address"
      pendingLabel="Confirming…"
    />
  );
}
