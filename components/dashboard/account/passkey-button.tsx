"use client";

import { startAuthentication } from "@simplewebauthn/browser";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { passkeyFactorAction, passkeyOptionsAction, passkeySignInAction } from "@/app/(auth)/sign-in/verify/actions";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/field";

type Options = Parameters<typeof startAuthentication>[0];

/** Signs in (password-less) or gives the second factor with a passkey, through the browser's WebAuthn prompt. */
export function PasskeyButton({ mode, next }: { mode: "sign_in" | "second_factor"; next?: string }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function run() {
    setPending(true);
    setRefusal(null);
    try {
      const challenge = await passkeyOptionsAction(mode);
      if ("error" in challenge) return setRefusal(challenge.error);
      let response;
      try {
        response = await startAuthentication(challenge.options as Options);
      } catch {
        return setRefusal("The passkey prompt was closed or no passkey was found. Try again.");
      }
      const result = mode === "sign_in" ? await passkeySignInAction(challenge.challengeId, response, next) : await passkeyFactorAction(challenge.challengeId, response, next);
      if (result) setRefusal(result.error);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-3">
      <FormAlert message={refusal} />
      <Button type="button" variant="secondary" className="w-full" pending={pending} onClick={() => void run()}>
        <KeyRound aria-hidden="true" className="h-4 w-4" />
        {mode === "sign_in" ? "Continue with a passkey" : "Use a passkey"}
      </Button>
    </div>
  );
}
