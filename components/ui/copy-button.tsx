"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "./button";

/**
 * Copies `value` to the clipboard and says so in a polite live region beside the button; the label names what is
 * copied for screen readers. No toast: pages without the dashboard's toaster (the docs) use it too, and the toast
 * library injects its stylesheet inline, which the page CSP refuses.
 */
export function CopyButton({ value, label = "Copy", what = "Value", onDark = false }: { value: string; label?: string; what?: string; onDark?: boolean }) {
  const [outcome, setOutcome] = useState<"copied" | "refused" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setOutcome("copied");
      setTimeout(() => setOutcome(null), 4000);
    } catch {
      setOutcome("refused");
    }
  }
  const copied = outcome === "copied";
  return (
    <span className="inline-flex flex-col items-end gap-1">
      {/* The name starts with the visible text, "Copied" included (WCAG 2.5.3, label in name). */}
      <Button variant="secondary" size="sm" onClick={copy} aria-label={`${copied ? "Copied" : label}: ${what.toLowerCase()}`}>
        {copied ? <Check aria-hidden="true" className="h-4 w-4" /> : <Copy aria-hidden="true" className="h-4 w-4" />}
        {copied ? "Copied" : label}
      </Button>
      {/* Readable on the panel it sits on: a code block's is dark. */}
      <span role="status" aria-live="polite" className={outcome ? `max-w-48 text-right text-xs ${onDark ? "text-slate-200" : "text-slate-700"}` : "sr-only"}>
        {outcome === "copied" ? `${what} copied to the clipboard` : outcome === "refused" ? "The browser refused the clipboard; select the text and copy it instead." : ""}
      </span>
    </span>
  );
}
