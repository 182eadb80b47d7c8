import type { Metadata } from "next";
import { ConfirmEmailForm } from "@/components/dashboard/email/password-forms";

export const metadata: Metadata = { title: "Confirm your email address", referrer: "no-referrer" };

export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <>
      <h1 className="text-xl font-bold tracking-tight text-slate-900">Confirm your email address</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Confirming lets your account create live keys and invite team members.</p>
      <ConfirmEmailForm token={token} />
    </>
  );
}
