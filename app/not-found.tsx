import type { Metadata } from "next";
import Link from "next/link";
import { PRIMARY_BUTTON } from "@/components/connect/flow-shell";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/**
 * Every unknown path and every notFound() outside the dashboard (a mistyped or unknown sharing-receipt link among
 * them) lands here. It is styled by the stylesheet alone, so the pages' CSP (no inline styles without a nonce)
 * blocks nothing, unlike Next's built-in page. The same words whether a link never existed or was mistyped: a link
 * reveals nothing.
 */
export default function NotFound() {
  return (
    <main className="mx-auto min-h-screen max-w-xl px-4 py-8 sm:px-6 sm:py-12">
      <p className="text-xs font-semibold uppercase tracking-wide text-teal-800">Chartkey</p>
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">We could not find this page</h1>
      <p className="mt-4 text-slate-700">
        The address may be mistyped or incomplete. If you followed a link to your sharing receipt, open it again from
        the message or the application that gave it to you, and check that the whole link was copied.
      </p>
      <Link href="/" className={`mt-6 ${PRIMARY_BUTTON}`}>
        Go to the Chartkey home page
      </Link>
    </main>
  );
}
