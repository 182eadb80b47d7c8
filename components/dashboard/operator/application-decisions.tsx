"use client";

import { useState } from "react";
import { toast } from "sonner";
import {
  approveProductionAction,
  refuseProductionAction,
  reinstateApplicationAction,
  suspendApplicationAction,
} from "@/app/(dashboard)/dashboard/operator/actions";
import type { ActionResult } from "@/lib/dashboard";
import { Button } from "@/components/ui/button";
import { FieldError, INPUT_CLASS } from "@/components/ui/field";

function announce(result: ActionResult): boolean {
  if (result.ok) toast.success(result.message);
  else toast.error(result.error);
  return result.ok;
}

/**
 * One action that needs words from the operator (a refusal's or a suspension's reason, an approval's optional
 * note): a labelled text box and its button; the server checks the words (lib/operators schemas) and its refusal
 * shows under the box.
 */
function ReasonAction({
  id,
  label,
  button,
  variant,
  required,
  run,
}: {
  id: string;
  label: string;
  button: string;
  variant: "primary" | "danger" | "secondary";
  required: boolean;
  run: (text: string) => Promise<ActionResult>;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  return (
    <form
      method="post"
      noValidate
      className="space-y-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        const result = await run(text);
        setPending(false);
        setError(result.ok ? undefined : result.error);
        if (announce(result)) setText("");
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
        {required ? null : <span className="font-normal text-slate-600"> (optional)</span>}
      </label>
      <textarea
        id={id}
        rows={2}
        className={INPUT_CLASS}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} message={error} />
      <Button type="submit" variant={variant} size="sm" pending={pending}>
        {button}
      </Button>
    </form>
  );
}

export function ProductionDecision({ requestId, applicationName }: { requestId: string; applicationName: string }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ReasonAction
        id={`approve-${requestId}`}
        label={`Note for ${applicationName}`}
        button="Approve production"
        variant="primary"
        required={false}
        run={(note) => approveProductionAction(requestId, { note })}
      />
      <ReasonAction
        id={`refuse-${requestId}`}
        label={`Reason to refuse ${applicationName}`}
        button="Refuse production"
        variant="danger"
        required
        run={(reason) => refuseProductionAction(requestId, { reason })}
      />
    </div>
  );
}

export function SuspensionControl({ applicationId, applicationName, suspended }: { applicationId: string; applicationName: string; suspended: boolean }) {
  const [pending, setPending] = useState(false);
  if (suspended) {
    return (
      <Button
        variant="secondary"
        size="sm"
        pending={pending}
        onClick={async () => {
          setPending(true);
          announce(await reinstateApplicationAction(applicationId));
          setPending(false);
        }}
      >
        Reinstate {applicationName}
      </Button>
    );
  }
  return (
    <ReasonAction
      id={`suspend-${applicationId}`}
      label={`Reason to suspend ${applicationName}`}
      button="Suspend application"
      variant="danger"
      required
      run={(reason) => suspendApplicationAction(applicationId, { reason })}
    />
  );
}
