"use client";

import { FastForward } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { sandboxEventAction } from "@/app/(dashboard)/dashboard/[appId]/sandbox/actions";
import type { SandboxEventResult } from "@/lib/simulation";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { ActionResult } from "@/lib/dashboard";

/** What the toast says a control did. */
function describe(result: SandboxEventResult): string {
  const sources = result.sources.map((source) => `${source.providerId} (${source.sourceKey}) is at phase ${source.phase}, ${source.status}${source.error ? `: ${source.error}` : ""}`).join("; ");
  switch (result.type) {
    case "records.advance":
      return `Advanced the records: ${sources}.`;
    case "source.fail":
      return `The next import failed as asked: ${sources}.`;
    case "consent.revoke":
      return result.receipts.length > 0 ? `Consent revoked (${result.receipts.map((receipt) => receipt.receiptId).join(", ")}); reads of this subject now answer 404.` : "No active receipt to revoke.";
    case "consent.expire":
      return result.receipts.length > 0 ? `Receipt expiry set to now (${result.receipts.map((receipt) => receipt.receiptId).join(", ")}); reads stop and consent.expired follows.` : "No active receipt to expire.";
  }
}

const CONFIRMED = {
  "source.fail": {
    label: "Fail the next import",
    title: "Make the source's next import fail?",
    description: "The source's next import fails once and runs now; the source reports the failure and sync.failed is sent for continuous consent.",
    confirmLabel: "Fail the import",
  },
  "consent.revoke": {
    label: "Revoke consent",
    title: "Revoke this subject's consent?",
    description: "Each active share receipt is revoked as the patient would: reads stop at once (404 not_found) and consent.revoked is sent. This cannot be undone.",
    confirmLabel: "Revoke consent",
  },
  "consent.expire": {
    label: "Expire consent",
    title: "Expire this subject's consent now?",
    description: "Each active receipt's expiry is set to now: reads stop, and consent.expired is sent on the lifecycle worker's next cycle. This cannot be undone.",
    confirmLabel: "Expire consent",
  },
} as const;

const CONSENT_EVENTS: readonly string[] = ["consent.revoke", "consent.expire"];

/**
 * The sandbox controls the subject's scenario supports, each saying in a toast what it did. Revoke and Expire act
 * on an active receipt only, so once consent has ended they are disabled and the reason is shown.
 */
export function SandboxEvents(props: { applicationId: string; subject: string; controls: string[]; simulated: boolean; consentActive: boolean }) {
  const { applicationId, subject, controls, simulated, consentActive } = props;
  const router = useRouter();
  const [advancing, startAdvance] = useTransition();

  async function run(type: string): Promise<ActionResult> {
    const result = await sandboxEventAction(applicationId, subject, type);
    if (!result.ok) return { ok: false, error: result.error };
    router.refresh();
    return { ok: true, message: describe(result.value) };
  }

  function advance() {
    startAdvance(async () => {
      const result = await run("records.advance");
      if (result.ok) toast.success(result.message);
      else toast.error(result.error);
    });
  }

  if (!simulated) return <p className="text-sm text-slate-600">Sandbox events apply to patients a simulation created; this one connected through the hosted flow.</p>;
  if (controls.length === 0) return <p className="text-sm text-slate-600">This subject&apos;s scenario supports no sandbox events.</p>;
  return (
    <div className="flex flex-wrap gap-2">
      {controls.includes("records.advance") ? (
        <Button variant="secondary" size="sm" onClick={advance} pending={advancing}>
          <FastForward aria-hidden="true" className="h-4 w-4" />
          {advancing ? "Advancing…" : "Advance records"}
        </Button>
      ) : null}
      {(["source.fail", "consent.revoke", "consent.expire"] as const)
        .filter((type) => controls.includes(type))
        .map((type) => (
          <ConfirmAction key={type} {...CONFIRMED[type]} action={() => run(type)} disabled={!consentActive && CONSENT_EVENTS.includes(type)} />
        ))}
      {!consentActive && controls.some((type) => CONSENT_EVENTS.includes(type)) ? (
        <p className="w-full text-sm text-slate-600">Consent has ended: there is no active receipt to revoke or expire.</p>
      ) : null}
    </div>
  );
}
