import type { Metadata } from "next";
import Link from "next/link";
import { OperationsOutline } from "@/components/docs/operations-outline";
import { ScalarReference } from "@/components/docs/scalar-reference";
import { GUIDES } from "@/components/docs/guides";

export const metadata: Metadata = { title: "API reference" };

// The links to the guides are plain <a>, not next/link: Scalar rewrites the URL's fragment as it loads, which cancels
// a client-side navigation started meanwhile (a reader clicking a guide while the reference loads would stay here).
export default function DocsPage() {
  return (
    <>
      <header className="border-b border-slate-200 bg-white px-4 py-4 sm:px-6">
        <p className="text-sm font-semibold uppercase tracking-wide text-teal-800">
          <Link href="/">Chartkey</Link>
        </p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">API reference</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          Search every operation (<kbd>Ctrl</kbd>/<kbd>⌘</kbd> <kbd>K</kbd>), read its errors and samples (the TypeScript SDK, curl, Python and Go), and try it
          against this deployment with a sandbox key (kept in this tab only). New here? Start with the{" "}
          <a className="text-teal-800 underline" href="/docs/guides/quickstart">
            quickstart
          </a>
          .
        </p>
        <nav aria-label="Guides" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {GUIDES.map((guide) => (
            <a key={guide.slug} className="text-teal-800 underline" href={`/docs/guides/${guide.slug}`}>
              {guide.title}
            </a>
          ))}
        </nav>
      </header>
      <main aria-label="Operations" className="overflow-x-clip">
        <ScalarReference />
        <OperationsOutline />
      </main>
    </>
  );
}
