"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { confirmEmailAction, forgotPasswordAction, resetPasswordAction } from "@/app/(auth)/email-actions";
import { passwordResetRequestSchema, PASSWORD_MIN_LENGTH, type PasswordResetRequestInput } from "@/lib/accounts/schemas";
import { Button } from "@/components/ui/button";
import { Field, FormAlert } from "@/components/ui/field";

const linkClass = "font-medium text-teal-800 underline underline-offset-2";

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
      <div className="space-y-4">
        <p role="status" className="rounded border border-teal-200 bg-teal-50 p-3 text-sm text-teal-900">
          If {sentTo} has a Chartkey account, we sent it a link to choose a new password. The link works once, for 30 minutes. Check your inbox and spam folder.
        </p>
        <p className="text-center text-sm text-slate-600">
          <Link className={linkClass} href="/sign-in">
            Back to sign in
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form method="post" onSubmit={submit} noValidate className="space-y-4">
      <FormAlert message={refusal} />
      <Field label="Email address" type="email" autoComplete="email" error={errors.email?.message} {...form.register("email")} />
      <Button type="submit" className="w-full" pending={isSubmitting}>
        {isSubmitting ? "Sending…" : "Email me a reset link"}
      </Button>
      <p className="text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link className={linkClass} href="/sign-in">
          Sign in
        </Link>
      </p>
    </form>
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
    <form method="post" onSubmit={submit} noValidate className="space-y-4">
      <FormAlert message={refusal} />
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters. Every session of the account is signed out."
        error={errors.password?.message}
        {...form.register("password")}
      />
      <Field label="Repeat the new password" type="password" autoComplete="new-password" error={errors.confirm?.message} {...form.register("confirm")} />
      <Button type="submit" className="w-full" pending={isSubmitting}>
        {isSubmitting ? "Saving…" : "Set the new password"}
      </Button>
    </form>
  );
}

/** The emailed confirmation link's page: one button confirms (a link alone changes nothing, so a mail scanner's visit does not). */
export function ConfirmEmailForm({ token }: { token: string }) {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  if (outcome?.ok) {
    return (
      <div className="space-y-4">
        <p role="status" className="rounded border border-teal-200 bg-teal-50 p-3 text-sm text-teal-900">
          {outcome.text} You can now create live keys and invite team members.
        </p>
        <p className="text-center text-sm">
          <Link className={linkClass} href="/dashboard">
            Go to the dashboard
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form
      method="post"
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        const result = await confirmEmailAction(token);
        setPending(false);
        setOutcome(result.ok ? { ok: true, text: result.message } : { ok: false, text: result.error });
      }}
      className="space-y-4"
    >
      <FormAlert message={outcome && !outcome.ok ? outcome.text : null} />
      <Button type="submit" className="w-full" pending={pending}>
        {pending ? "Confirming…" : "Confirm my email address"}
      </Button>
    </form>
  );
}
