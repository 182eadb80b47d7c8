"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

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
 * The application's sections; on a phone they wrap onto a second line rather than scroll out of sight (hidden
 * tabs gave no hint they were there), and the current one is marked for assistive technology.
 */
export function ApplicationNav({ applicationId }: { applicationId: string }) {
  const pathname = usePathname();
  const base = `/dashboard/${applicationId}`;
  return (
    <nav aria-label="Application" className="border-b border-slate-200">
      <ul className="flex flex-wrap gap-x-1">
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
    </nav>
  );
}
