import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/dashboard/auth-forms";
import { currentDeveloper } from "@/lib/dashboard";
import { safeReturnPath } from "@/lib/session";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  if (await currentDeveloper()) redirect(safeReturnPath(next));
  return (
    <>
      <h1 className="text-xl font-bold tracking-tight text-slate-900">Create your developer account</h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Start in the sandbox with synthetic patients; go live when you are ready.</p>
      <SignUpForm next={typeof next === "string" ? next : undefined} />
    </>
  );
}
