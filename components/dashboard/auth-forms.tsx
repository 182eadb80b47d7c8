"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { signInWithPassword, signUpWithPassword, type AuthFormResult } from "@/app/(auth)/actions";
import { signInSchema, signUpSchema, type SignInInput, type SignUpInput } from "@/lib/accounts/schemas";
import { AuthFormFrame, authLinkClass, AuthNotice } from "@/components/dashboard/auth-form-frame";
import { Field } from "@/components/ui/field";

function withNext(path: string, next?: string): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

export function SignInForm({ next }: { next?: string }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<SignInInput>({ resolver: zodResolver(signInSchema), defaultValues: { email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;
  // Back from a password reset (app/(auth)/reset-password): every session was signed out.
  const reset = useSearchParams().get("reset") === "1";
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result: AuthFormResult = await signInWithPassword(values, next);
    if (result) setRefusal(result.error);
  });
  return (
    <AuthFormFrame
      onSubmit={submit}
      refusal={refusal}
      pending={isSubmitting}
      label="Sign in"
      pendingLabel="Signing in…"
      notice={reset ? <AuthNotice>Your password is changed and every session of the account was signed out. Sign in with the new password.</AuthNotice> : null}
      footer={{ prompt: "New to Chartkey?", href: withNext("/sign-up", next), link: "Create an account" }}
    >
      <Field label="Email address" type="email" autoComplete="email" error={errors.email?.message} {...form.register("email")} />
      <Field label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...form.register("password")} />
      <p className="-mt-2 text-right text-sm">
        <Link className={authLinkClass} href="/forgot-password">
          Forgot your password?
        </Link>
      </p>
    </AuthFormFrame>
  );
}

export function SignUpForm({ next }: { next?: string }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<SignUpInput>({ resolver: zodResolver(signUpSchema), defaultValues: { name: "", email: "", password: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await signUpWithPassword(values, next);
    if (result) setRefusal(result.error);
  });
  return (
    <AuthFormFrame
      onSubmit={submit}
      refusal={refusal}
      pending={isSubmitting}
      label="Create account"
      pendingLabel="Creating your account…"
      footer={{ prompt: "Already have an account?", href: withNext("/sign-in", next), link: "Sign in" }}
    >
      <Field label="Your name" autoComplete="name" error={errors.name?.message} {...form.register("name")} />
      <Field label="Email address" type="email" autoComplete="email" error={errors.email?.message} {...form.register("email")} />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters. Stored only as an argon2id hash."
        error={errors.password?.message}
        {...form.register("password")}
      />
    </AuthFormFrame>
  );
}
