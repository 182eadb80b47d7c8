"use client";

import { useState } from "react";
import { giveSecondFactorAction } from "@/app/(auth)/sign-in/verify/actions";
import { Button } from "@/components/ui/button";
import { Field, FormAlert } from "@/components/ui/field";

type Method = "totp" | "recovery_code";

/**
 * Asks for the second factor: the authenticator app's six digits (when the account has one), or a recovery code.
 * Passkeys sign in from their own button beside it.
 */
export function SecondFactorForm({ next, totp, submitLabel = "Continue" }: { next?: string; totp: boolean; submitLabel?: string }) {
  const [method, setMethod] = useState<Method>(totp ? "totp" : "recovery_code");
  const [code, setCode] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setRefusal(null);
    try {
      const result = await giveSecondFactorAction(method, code, next);
      if (result) setRefusal(result.error);
    } finally {
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={submit} noValidate className="space-y-4">
      <FormAlert message={refusal} />
      {method === "totp" ? (
        <Field
          key="totp"
          label="Code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          hint="Six digits; a new one every 30 seconds."
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      ) : (
        <Field key="recovery" label="Recovery code" autoComplete="off" hint="One of the ten codes you saved. Each works once." value={code} onChange={(event) => setCode(event.target.value)} />
      )}
      <Button type="submit" className="w-full" pending={pending}>
        {pending ? "Checking…" : submitLabel}
      </Button>
      <p className="text-center text-sm">
        {method === "totp" ? (
          <button type="button" className="font-medium text-teal-800 underline underline-offset-2" onClick={() => { setMethod("recovery_code"); setCode(""); setRefusal(null); }}>
            Use a recovery code instead
          </button>
        ) : totp ? (
          <button type="button" className="font-medium text-teal-800 underline underline-offset-2" onClick={() => { setMethod("totp"); setCode(""); setRefusal(null); }}>
            Use your authenticator app instead
          </button>
        ) : null}
      </p>
    </form>
  );
}
