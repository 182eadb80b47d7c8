"use client";

import { useState } from "react";
import { toast } from "sonner";
import { rerunSourceAction } from "@/app/(dashboard)/dashboard/[appId]/live/actions";
import { Button } from "@/components/ui/button";

/** Re-run one source's sync now (a team member; rate-limited per application, audited). */
export function RerunSourceButton({ applicationId, sourceId, providerName }: { applicationId: string; sourceId: string; providerName: string }) {
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      pending={pending}
      onClick={async () => {
        setPending(true);
        const result = await rerunSourceAction(applicationId, sourceId);
        setPending(false);
        if (result.ok) toast.success(result.message);
        else toast.error(result.error);
      }}
    >
      Re-run sync of {providerName}
    </Button>
  );
}
