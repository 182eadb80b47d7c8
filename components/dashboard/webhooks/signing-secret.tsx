"use client";

import { Eye, EyeOff } from "lucide-react";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { revealSecretAction, rotateSecretAction } from "@/app/(dashboard)/dashboard/[appId]/webhooks/actions";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { ConfirmAction } from "@/components/ui/confirm-action";

type SigningSecretProps = { applicationId: string; isOwner: boolean; previousExpiresAt: string | null };

function utc(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 16)} UTC`;
}

/**
 * The `whsec_` secret receivers verify deliveries with: hidden until an owner reveals it, then copyable; rotating
 * keeps the old one verifying for 24 hours. Members are told only owners can see or rotate it.
 */
export function SigningSecret({ applicationId, isOwner, previousExpiresAt }: SigningSecretProps) {
  const [secret, setSecret] = useState<string | null>(null);
  const [previousUntil, setPreviousUntil] = useState(previousExpiresAt);
  const [pending, startTransition] = useTransition();

  function reveal() {
    startTransition(async () => {
      const result = await revealSecretAction(applicationId);
      if (!result.ok) return void toast.error(result.error);
      setSecret(result.secret);
      setPreviousUntil(result.previousExpiresAt);
    });
  }

  async function rotate() {
    const result = await rotateSecretAction(applicationId);
    if (!result.ok) return result;
    setSecret(result.secret);
    setPreviousUntil(result.previousExpiresAt);
    return { ok: true as const, message: result.message };
  }

  const previousNote = previousUntil ? (
    <p className="text-sm text-amber-900" role="status">
      The previous secret also keeps verifying until <strong>{utc(previousUntil)}</strong>: every delivery carries a signature with each.
    </p>
  ) : null;

  if (!isOwner) {
    return (
      <div className="space-y-2 text-sm text-slate-700">
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2">Only owners can reveal or rotate the signing secret. Ask an owner of this application for it.</p>
        {previousNote}
      </div>
    );
  }

  return (
    <div className="space-y-4">
      {secret ? (
        <CodeBlock code={secret} what="Signing secret" label="Signing secret" />
      ) : (
        <p className="rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-700">
          <span className="sr-only">Signing secret: hidden. </span>
          <span aria-hidden="true">whsec_••••••••••••••••••••••••</span>
        </p>
      )}
      {previousNote}
      <div className="flex flex-wrap gap-2">
        {secret ? (
          <Button variant="secondary" size="sm" onClick={() => setSecret(null)}>
            <EyeOff aria-hidden="true" className="h-4 w-4" />
            Hide secret
          </Button>
        ) : (
          <Button variant="secondary" size="sm" onClick={reveal} pending={pending}>
            <Eye aria-hidden="true" className="h-4 w-4" />
            {pending ? "Revealing…" : "Reveal secret"}
          </Button>
        )}
        <ConfirmAction
          label="Rotate secret"
          title="Rotate the signing secret?"
          description={
            <>
              <p>A new secret signs every delivery from now on. The current one keeps verifying for 24 hours (deliveries carry both signatures), so you can update your receiver without dropping events.</p>
              <p>After 24 hours only the new secret verifies. Rotating again within that window stops the oldest secret at once.</p>
            </>
          }
          confirmLabel="Rotate secret"
          action={rotate}
        />
      </div>
    </div>
  );
}
