"use client";

import { useState, useTransition } from "react";
import { acceptInvitationAction } from "@/app/(dashboard)/invitations/[token]/actions";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/field";

export function AcceptInvitation({ token }: { token: string }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-3">
      <FormAlert message={refusal} />
      <Button
        pending={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await acceptInvitationAction(token);
            setRefusal(result.error);
          })
        }
      >
        {pending ? "Joining…" : "Accept invitation"}
      </Button>
    </div>
  );
}
