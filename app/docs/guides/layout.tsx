import Link from "next/link";
import { GUIDES } from "@/components/docs/guides";

/** The guides: a list of them beside (or, on a phone, above) the one being read. */
export default function GuidesLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:flex lg:gap-10">
      <nav aria-label="Guides" className="mb-8 shrink-0 text-sm lg:w-56">
        <p className="font-semibold uppercase tracking-wide text-teal-800">
          <Link href="/">Chartkey</Link> docs
        </p>
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-2 lg:block lg:space-y-2">
          {GUIDES.map((guide) => (
            <li key={guide.slug}>
              <Link className="text-slate-700 hover:text-teal-800 hover:underline" href={`/docs/guides/${guide.slug}`}>
                {guide.title}
              </Link>
            </li>
          ))}
          <li>
            <Link className="font-medium text-teal-800 underline" href="/docs">
              API reference
            </Link>
          </li>
        </ul>
      </nav>
      <main className="min-w-0 max-w-3xl flex-1">
        <article>{children}</article>
      </main>
    </div>
  );
}
