import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * A table that scrolls sideways on a phone instead of squeezing its columns; the scrolling region is focusable and
 * named, so keyboard users can scroll it too. It is positioned, so screen-reader-only text in a far column (absolutely
 * positioned) stays inside the scrolling region instead of widening the whole page.
 */
export function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700" tabIndex={0} role="region" aria-label={caption}>
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`whitespace-nowrap px-4 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600 ${className}`} {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-4 py-2 align-top text-slate-800 ${className}`} {...props} />;
}
