"use client";

import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "./button";

/** Copies `value` to the clipboard and says so; the label names what is copied for screen readers. */
export function CopyButton({ value, label = "Copy", what = "Value" }: { value: string; label?: string; what?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(`${what} copied to the clipboard`);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error("The browser refused the clipboard; select the text and copy it instead.");
    }
  }
  return (
    <Button variant="secondary" size="sm" onClick={copy} aria-label={`${label}: ${what.toLowerCase()}`}>
      {copied ? <Check aria-hidden="true" className="h-4 w-4" /> : <Copy aria-hidden="true" className="h-4 w-4" />}
      {copied ? "Copied" : label}
    </Button>
  );
}
