import type { ReactNode } from "react";

/** One labelled value of a description list (`<dl>`): the subject pages' consent and source facts. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-1 break-words text-slate-900">{children}</dd>
    </div>
  );
}
