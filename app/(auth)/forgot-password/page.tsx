import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/dashboard/email/password-forms";

export const metadata: Metadata = { title: "Forgot your password" };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className="text-xl font-bold tracking-tight text-slate-900">Forgot your password?</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Enter the email address of your dashboard account and we will email you a link to choose a new password.</p>
      <ForgotPasswordForm />
    </>
  );
}
