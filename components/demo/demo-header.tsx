import Link from "next/link";
import type { ReactNode } from "react";
import { DATA_NOTICE } from "@/lib/demo";

/** The demo pages' header: where the reader is, the page's title and the fictional-data notice. */
export function DemoHeader({ trail, title, children }: { trail: { href: string; label: string }[]; title: string; children?: ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto max-w-5xl px-4 py-5 sm:px-6">
        <nav aria-label="Breadcrumb">
          <ol className="flex flex-wrap items-center gap-x-2 text-sm font-semibold text-teal-800">
            {trail.map((step, index) => (
              <li key={step.href} className="flex items-center gap-2">
                {index > 0 ? <span aria-hidden="true" className="text-slate-400">/</span> : null}
                <Link className="underline-offset-2 hover:underline" href={step.href}>
                  {step.label}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {children}
        <p className="mt-3 inline-block rounded bg-amber-50 px-2 py-1 text-xs font-medium text-amber-900 ring-1 ring-inset ring-amber-300">{DATA_NOTICE}</p>
      </div>
    </header>
  );
}
