"use client";

import { useState } from "react";
import { resendVerificationAction } from "@/app/(dashboard)/dashboard/verification-actions";
import { Button } from "@/components/ui/button";

export function ResendVerificationButton() {
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="flex shrink-0 flex-col gap-1 sm:items-end">
      <Button
        type="button"
        variant="secondary"
        size="sm"
        pending={pending}
        onClick={async () => {
          setPending(true);
          const result = await resendVerificationAction();
          setPending(false);
          setOutcome(result.ok ? { ok: true, text: result.message } : { ok: false, text: result.error });
        }}
      >
        {pending ? "Sending…" : "Send the link again"}
      </Button>
      <p role="status" className={outcome?.ok === false ? "text-red-800" : "text-amber-950"}>
        {outcome?.text ?? ""}
      </p>
    </div>
  );
}
