"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { signInWithPassword, signUpWithPassword, type AuthFormResult } from "@/app/(auth)/actions";
import { signInSchema, signUpSchema, type SignInInput, type SignUpInput } from "@/lib/accounts/schemas";
import { Button } from "@/components/ui/button";
import { Field, FormAlert } from "@/components/ui/field";

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
    <form method="post" onSubmit={submit} noValidate className="space-y-4">
      {reset ? (
        <p role="status" className="rounded border border-teal-200 bg-teal-50 p-3 text-sm text-teal-900">
          Your password is changed and every session of the account was signed out. Sign in with the new password.
        </p>
      ) : null}
      <FormAlert message={refusal} />
      <Field label="Email address" type="email" autoComplete="email" error={errors.email?.message} {...form.register("email")} />
      <Field label="Password" type="password" autoComplete="current-password" error={errors.password?.message} {...form.register("password")} />
      <p className="-mt-2 text-right text-sm">
        <Link className="font-medium text-teal-800 underline underline-offset-2" href="/forgot-password">
          Forgot your password?
        </Link>
      </p>
      <Button type="submit" className="w-full" pending={isSubmitting}>
        {isSubmitting ? "Signing in…" : "Sign in"}
      </Button>
      <p className="text-center text-sm text-slate-600">
        New to Chartkey?{" "}
        <Link className="font-medium text-teal-800 underline underline-offset-2" href={withNext("/sign-up", next)}>
          Create an account
        </Link>
      </p>
    </form>
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
    <form method="post" onSubmit={submit} noValidate className="space-y-4">
      <FormAlert message={refusal} />
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
      <Button type="submit" className="w-full" pending={isSubmitting}>
        {isSubmitting ? "Creating your account…" : "Create account"}
      </Button>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{" "}
        <Link className="font-medium text-teal-800 underline underline-offset-2" href={withNext("/sign-in", next)}>
          Sign in
        </Link>
      </p>
    </form>
  );
}
