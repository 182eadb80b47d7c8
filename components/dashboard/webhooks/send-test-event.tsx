"use client";

import { Send } from "lucide-react";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { resendDeliveryAction, sendTestEventAction } from "@/app/(dashboard)/dashboard/[appId]/webhooks/actions";
import { Button } from "@/components/ui/button";
import { SAMPLE_EVENT_TYPES, type SampleEventType } from "@/lib/webhooks/schemas";

type ActionButtonProps = { label: string; pendingLabel: string; disabled?: boolean; run: () => Promise<{ ok: true; message: string } | { ok: false; error: string }> };

/** A button that runs a server action once and says what happened in a toast. */
function ActionButton({ label, pendingLabel, disabled, run }: ActionButtonProps) {
  const [pending, startTransition] = useTransition();
  function click() {
    startTransition(async () => {
      const result = await run();
      if (result.ok) toast.success(result.message);
      else toast.error(result.error);
    });
  }
  return (
    <Button onClick={click} pending={pending} disabled={disabled}>
      <Send aria-hidden="true" className="h-4 w-4" />
      {pending ? pendingLabel : label}
    </Button>
  );
}

/**
 * Queues a signed event to the current endpoint: `webhook.test`, or a sample of any business event (marked
 * `data.sample: true`) so a receiver's handler for each type can be tried. The refreshed log shows its delivery.
 */
export function SendTestEventButton({ applicationId, disabled }: { applicationId: string; disabled?: boolean }) {
  const [type, setType] = useState<SampleEventType>("webhook.test");
  return (
    <div className="flex flex-wrap items-end gap-2">
      <label className="text-sm font-medium text-slate-800">
        Event type
        <select
          value={type}
          disabled={disabled}
          onChange={(event) => setType(event.target.value as SampleEventType)}
          className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30 disabled:opacity-60"
        >
          {SAMPLE_EVENT_TYPES.map((value) => (
            <option key={value} value={value}>
              {value === "webhook.test" ? "webhook.test" : `${value} (sample)`}
            </option>
          ))}
        </select>
      </label>
      <ActionButton label="Send test event" pendingLabel="Sending…" disabled={disabled} run={() => sendTestEventAction(applicationId, type)} />
    </div>
  );
}

/** Re-sends a settled delivery as a new delivery of the same event (same `webhook-id`, so receivers can dedupe). */
export function ResendDeliveryButton({ applicationId, deliveryId, disabled }: { applicationId: string; deliveryId: string; disabled?: boolean }) {
  return <ActionButton label="Re-send" pendingLabel="Re-sending…" disabled={disabled} run={() => resendDeliveryAction(applicationId, deliveryId)} />;
}
