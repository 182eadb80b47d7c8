import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/dashboard/email/password-forms";
import { previewPasswordReset } from "@/lib/accounts";

export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const preview = await previewPasswordReset(token);
  if (preview.state !== "valid") {
    return (
      <>
        <h1 className="text-xl font-bold tracking-tight text-slate-900">This link does not work</h1>
        <p className="mt-2 mb-6 text-sm text-slate-600">A password reset link works once, for 30 minutes, and only the newest one sent works. Ask for a new one.</p>
        <Link className="font-medium text-teal-800 underline underline-offset-2" href="/forgot-password">
          Ask for a new link
        </Link>
      </>
    );
  }
  return (
    <>
      <h1 className="text-xl font-bold tracking-tight text-slate-900">Choose a new password</h1>
      <p className="mt-1 mb-6 text-sm break-words text-slate-600">For {preview.email}.</p>
      <ResetPasswordForm token={token} />
    </>
  );
}
