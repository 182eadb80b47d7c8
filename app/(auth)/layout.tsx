import Link from "next/link";
import type { ReactNode } from "react";
import { DashboardProviders } from "@/components/ui/providers";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <DashboardProviders>
      <main className="flex min-h-screen flex-col items-center px-4 py-12 sm:py-20">
        <Link href="/" className="text-sm font-semibold uppercase tracking-wide text-teal-800">
          Chartkey
        </Link>
        <div className="mt-6 w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">{children}</div>
      </main>
    </DashboardProviders>
  );
}
