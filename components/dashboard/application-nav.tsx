"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export const APPLICATION_SECTIONS = [
  { segment: "", label: "Overview" },
  { segment: "keys", label: "API keys" },
  { segment: "webhooks", label: "Webhooks" },
  { segment: "sandbox", label: "Sandbox" },
  { segment: "live", label: "Live subjects" },
  { segment: "conformance", label: "Conformance" },
  { segment: "usage", label: "Usage" },
  { segment: "team", label: "Team" },
  { segment: "security", label: "Security" },
  { segment: "settings", label: "Settings" },
] as const;

/**
 * The application's sections as one row of tabs; on a phone the row scrolls sideways (wrapped, ten tabs took three
 * lines above the content), with the edge faded to show there is more, and the current tab scrolled into view. The
 * current one is marked for assistive technology.
 */
export function ApplicationNav({ applicationId }: { applicationId: string }) {
  const pathname = usePathname();
  const base = `/dashboard/${applicationId}`;
  const list = useRef<HTMLUListElement>(null);
  // The current tab in view within the row (scrolling the row only, never the page), on arrival and when the
  // window narrows to a phone's width.
  useEffect(() => {
    const row = list.current;
    if (!row) return;
    const reveal = () => {
      const current = row.querySelector<HTMLElement>('[aria-current="page"]');
      if (!current) return;
      if (current.offsetLeft < row.scrollLeft || current.offsetLeft + current.offsetWidth > row.scrollLeft + row.clientWidth) {
        row.scrollLeft = current.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
      }
    };
    reveal();
    window.addEventListener("resize", reveal);
    return () => window.removeEventListener("resize", reveal);
  }, [pathname]);
  return (
    <nav aria-label="Application" className="relative border-b border-slate-200">
      <ul ref={list} className="-mb-px flex gap-x-1 overflow-x-auto whitespace-nowrap [scrollbar-width:thin] sm:flex-wrap sm:overflow-visible">
        {APPLICATION_SECTIONS.map(({ segment, label }) => {
          const href = segment ? `${base}/${segment}` : base;
          const current = segment ? pathname === href || pathname.startsWith(`${href}/`) : pathname === base;
          return (
            <li key={label}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={`inline-block border-b-2 px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700 ${current ? "border-teal-800 text-teal-900" : "border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900"}`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
      <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-0 w-8 bg-gradient-to-l from-white sm:hidden" />
    </nav>
  );
}
