"use client";

import { startRegistration } from "@simplewebauthn/browser";
import { KeyRound, Smartphone } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import {
  beginTotpAction,
  confirmTotpAction,
  passkeyRegistrationOptionsAction,
  registerPasskeyAction,
  regenerateRecoveryCodesAction,
  removePasskeyAction,
  removeTotpAction,
  type CodesResult,
} from "@/app/(dashboard)/dashboard/account/security/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { Field, FormAlert } from "@/components/ui/field";

export type PasskeyRow = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

type RegistrationOptions = Parameters<typeof startRegistration>[0];

/** Recovery codes, shown once right after they are made. */
function RecoveryCodes({ codes, next }: { codes: string[]; next?: string }) {
  return (
    <div role="status" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm text-amber-950">
        <strong>Save these recovery codes now.</strong> They are shown only once. Each signs you in once if you lose your authenticator app and passkeys.
      </p>
      <CodeBlock code={codes.join("\n")} what="Recovery codes" />
      {next ? (
        <Link className="inline-block text-sm font-medium text-teal-800 underline underline-offset-2" href={next}>
          I saved them: continue where I was
        </Link>
      ) : null}
    </div>
  );
}

function TotpSetup({ onCodes }: { onCodes: (result: CodesResult) => void }) {
  const [secret, setSecret] = useState<{ secret: string; uri: string; qrCode: string } | null>(null);
  const [code, setCode] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function begin() {
    setPending(true);
    const started = await beginTotpAction();
    setPending(false);
    if (!started.ok) return setRefusal(started.error);
    setSecret(started);
  }

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setRefusal(null);
    const result = await confirmTotpAction(code);
    setPending(false);
    if (!result.ok) return setRefusal(result.error);
    toast.success(result.message);
    onCodes(result);
  }

  if (!secret) {
    return (
      <div className="space-y-3">
        <FormAlert message={refusal} />
        <Button type="button" onClick={() => void begin()} pending={pending}>
          <Smartphone aria-hidden="true" className="h-4 w-4" />
          Set up an authenticator app
        </Button>
      </div>
    );
  }
  return (
    <form method="post" onSubmit={confirm} noValidate className="space-y-4">
      <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
        <li>
          In your authenticator app (1Password, Google Authenticator, Authy…), scan this QR code or add an account with the setup key, or{" "}
          <a className="font-medium text-teal-800 underline underline-offset-2" href={secret.uri}>
            open it in the app
          </a>{" "}
          on this phone.
        </li>
        <li>Type the six digits it shows below.</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {/* A data: URL drawn on the server (lib/account-security/totp-qr.ts): next/image has nothing to optimise. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img
          src={secret.qrCode}
          alt="QR code of the setup key: scan it with your authenticator app"
          width={212}
          height={212}
          className="h-53 w-53 shrink-0 rounded border border-slate-200 bg-white [image-rendering:pixelated]"
        />
        <div className="min-w-0 flex-1">
          <CodeBlock code={secret.secret} what="Setup key" />
        </div>
      </div>
      <FormAlert message={refusal} />
      <Field label="Code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} />
      <Button type="submit" pending={pending}>
        Turn on
      </Button>
    </form>
  );
}

function PasskeySetup({ onCodes }: { onCodes: (result: CodesResult) => void }) {
  const [name, setName] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function add(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setRefusal(null);
    try {
      const challenge = await passkeyRegistrationOptionsAction();
      let response;
      try {
        response = await startRegistration(challenge.options as RegistrationOptions);
      } catch {
        return setRefusal("The passkey prompt was closed, or this device cannot make a passkey.");
      }
      const result = await registerPasskeyAction(challenge.challengeId, response, name);
      if (!result.ok) return setRefusal(result.error);
      toast.success(result.message);
      setName("");
      onCodes(result);
    } finally {
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={add} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <Field className="sm:w-72" label="Passkey name" placeholder="Work laptop" value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />
      <Button type="submit" pending={pending}>
        <KeyRound aria-hidden="true" className="h-4 w-4" />
        Add a passkey
      </Button>
      <FormAlert message={refusal} />
    </form>
  );
}

/** The account's second factors: authenticator app, passkeys, recovery codes. */
export function FactorsPanel({ totp, passkeys, recoveryCodesLeft, next }: { totp: boolean; passkeys: PasskeyRow[]; recoveryCodesLeft: number; next?: string }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const enrolled = totp || passkeys.length > 0;
  const showCodes = (result: CodesResult) => {
    if (result.ok && result.recoveryCodes) setCodes(result.recoveryCodes);
  };

  return (
    <div className="space-y-6">
      {codes ? <RecoveryCodes codes={codes} next={next} /> : null}
      <Card>
        <CardHeader
          title="Authenticator app"
          description="Six-digit codes from an app on your phone (TOTP, RFC 6238), asked after your password."
          actions={
            totp ? (
              <ConfirmAction
                label="Remove"
                title="Remove the authenticator app?"
                description={<p>Your other sessions are signed out. Without a second factor, live keys and secrets are out of reach where one is required.</p>}
                confirmLabel="Remove authenticator app"
                action={removeTotpAction}
              />
            ) : null
          }
        />
        <CardBody>{totp ? <p className="text-sm text-slate-700"><Badge tone="success">On</Badge> Codes from your app are asked after your password.</p> : <TotpSetup onCodes={showCodes} />}</CardBody>
      </Card>
      <Card>
        <CardHeader title="Passkeys" description="A passkey on this device or a security key: signs you in without a password, or confirms it is you after it." />
        <CardBody className="space-y-4">
          {passkeys.length > 0 ? (
            <ul className="divide-y divide-slate-200 rounded-md border border-slate-200">
              {passkeys.map((passkey) => (
                <li key={passkey.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{passkey.name}</p>
                    <p className="text-xs text-slate-600">
                      Added {passkey.createdAt.slice(0, 10)}
                      {passkey.lastUsedAt ? `, last used ${passkey.lastUsedAt.slice(0, 16).replace("T", " ")} UTC` : ", not used yet"}
                    </p>
                  </div>
                  <ConfirmAction
                    label="Remove"
                    title={`Remove the passkey “${passkey.name}”?`}
                    description={<p>It no longer signs you in. Your other sessions are signed out.</p>}
                    confirmLabel="Remove passkey"
                    action={() => removePasskeyAction(passkey.id)}
                  />
                </li>
              ))}
            </ul>
          ) : null}
          <PasskeySetup onCodes={showCodes} />
        </CardBody>
      </Card>
      {enrolled ? (
        <Card>
          <CardHeader
            title="Recovery codes"
            description={`${recoveryCodesLeft} of 10 left. Each signs you in once when your app and passkeys are out of reach.`}
            actions={
              <Button
                type="button"
                variant="secondary"
                size="sm"
                onClick={() =>
                  void regenerateRecoveryCodesAction().then((result) => {
                    if (!result.ok) return toast.error(result.error);
                    toast.success(result.message);
                    showCodes(result);
                  })
                }
              >
                Make new codes
              </Button>
            }
          />
        </Card>
      ) : null}
    </div>
  );
}
