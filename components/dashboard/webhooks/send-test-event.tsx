"use client";

import { Send } from "lucide-react";
import { useTransition } from "react";
import { toast } from "sonner";
import { resendDeliveryAction, sendTestEventAction } from "@/app/(dashboard)/dashboard/[appId]/webhooks/actions";
import { Button } from "@/components/ui/button";

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

/** Queues a signed `webhook.test` event to the current endpoint; the refreshed log shows its delivery. */
export function SendTestEventButton({ applicationId, disabled }: { applicationId: string; disabled?: boolean }) {
  return <ActionButton label="Send test event" pendingLabel="Sending…" disabled={disabled} run={() => sendTestEventAction(applicationId)} />;
}

/** Re-sends a settled delivery as a new delivery of the same event (same `webhook-id`, so receivers can dedupe). */
export function ResendDeliveryButton({ applicationId, deliveryId, disabled }: { applicationId: string; deliveryId: string; disabled?: boolean }) {
  return <ActionButton label="Re-send" pendingLabel="Re-sending…" disabled={disabled} run={() => resendDeliveryAction(applicationId, deliveryId)} />;
}
