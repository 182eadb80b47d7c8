import { Braces, Flame } from "lucide-react";
import type { DemoLink } from "./demo-view";

/**
 * Links to the demo API's raw answers. Plain <a>: they leave the app for a JSON document. The path is shown, so a
 * developer sees the request they can make themselves; it wraps rather than widening a phone's page.
 */
export function DemoLinks({ links, kind, label }: { links: DemoLink[]; kind: "json" | "fhir"; label: string }) {
  const Icon = kind === "json" ? Braces : Flame;
  return (
    <ul aria-label={label} className="space-y-1 text-sm">
      {links.map((link) => (
        <li key={link.href} className="flex min-w-0 items-start gap-2">
          <Icon aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" />
          <a className="min-w-0 text-teal-800 underline underline-offset-2 hover:text-teal-950" href={link.href}>
            {link.label}
            <span className="block break-all font-mono text-xs text-slate-600">GET {link.href}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
