import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { documentLanguage, PAGE_LOCALE_HEADER } from "@/lib/i18n";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Chartkey", template: "%s · Chartkey" },
  description: "Patient-authorized health records for your application: Connect, normalized records, consent receipts.",
};

// Every page renders per request: the platform server gives each document a fresh CSP nonce, and Next.js can put
// it on its scripts only while rendering (a page prerendered at build time carries none, so its scripts would be
// blocked).
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  const lang = documentLanguage((await headers()).get(PAGE_LOCALE_HEADER));
  return (
    <html lang={lang}>
      <body className="min-h-screen antialiased font-sans">{children}</body>
    </html>
  );
}
