"use client";

import { useState } from "react";
import { toast } from "sonner";
import {
  createProviderAction,
  previewProviderAction,
  rerunProviderSyncsAction,
  rerunSourceSyncAction,
  setProviderDisabledAction,
  testProviderAction,
  updateProviderAction,
} from "@/app/(dashboard)/dashboard/operator/providers/actions";
import type { ActionResult } from "@/lib/dashboard";
import type { DiscoveryResult, ProviderDiscovery } from "@/lib/provider-directory";
import { Button } from "@/components/ui/button";
import { Field, FormAlert } from "@/components/ui/field";

function announce(result: ActionResult): boolean {
  if (result.ok) toast.success(result.message);
  else toast.error(result.error);
  return result.ok;
}

export function DiscoveryDetails({ discovery }: { discovery: ProviderDiscovery }) {
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[11rem_1fr]">
      <dt className="font-medium text-slate-600">Authorization endpoint</dt>
      <dd className="break-all font-mono text-xs">{discovery.authorizeUrl}</dd>
      <dt className="font-medium text-slate-600">Token endpoint</dt>
      <dd className="break-all font-mono text-xs">{discovery.tokenUrl}</dd>
      <dt className="font-medium text-slate-600">FHIR version</dt>
      <dd>{discovery.fhirVersion ?? "not stated"}</dd>
      <dt className="font-medium text-slate-600">Software</dt>
      <dd>{discovery.software ?? "not stated"}</dd>
      <dt className="font-medium text-slate-600">SMART capabilities</dt>
      <dd className="break-words">{discovery.capabilities.join(", ") || "none listed"}</dd>
      <dt className="font-medium text-slate-600">Resource types</dt>
      <dd className="break-words">{discovery.resourceTypes.join(", ") || "none listed"}</dd>
    </dl>
  );
}

type AddValues = { name: string; location: string; fhirBaseUrl: string; clientId: string; clientSecret: string };

/** Look up a FHIR base URL (what discovery finds is shown), then add it with the client credentials. */
export function AddProviderForm() {
  const [values, setValues] = useState<AddValues>({ name: "", location: "", fhirBaseUrl: "", clientId: "", clientSecret: "" });
  const [found, setFound] = useState<DiscoveryResult | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState<"lookup" | "add" | null>(null);
  const set = (key: keyof AddValues) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues({ ...values, [key]: event.target.value });
    if (key === "fhirBaseUrl") setFound(null);
  };
  async function lookUp() {
    setPending("lookup");
    setRefusal(null);
    const outcome = await previewProviderAction({ fhirBaseUrl: values.fhirBaseUrl });
    setPending(null);
    if (!outcome.ok) return setRefusal(outcome.error);
    setFound(outcome.value);
  }
  async function add(event: React.FormEvent) {
    event.preventDefault();
    setPending("add");
    const result = await createProviderAction(values);
    setPending(null);
    setRefusal(result.ok ? null : result.error);
    if (announce(result)) {
      setValues({ name: "", location: "", fhirBaseUrl: "", clientId: "", clientSecret: "" });
      setFound(null);
    }
  }
  return (
    <form method="post" onSubmit={add} noValidate className="space-y-4">
      <FormAlert message={refusal} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field className="sm:flex-1" label="FHIR base URL" placeholder="https://fhir.example-health.org/r4" value={values.fhirBaseUrl} onChange={set("fhirBaseUrl")} />
        <Button type="button" variant="secondary" pending={pending === "lookup"} onClick={lookUp}>
          Look up
        </Button>
      </div>
      {found ? (
        found.ok ? (
          <div role="status" className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3">
            <p className="text-sm font-medium text-emerald-900">Found a SMART on FHIR server at {found.fhirBaseUrl}</p>
            <DiscoveryDetails discovery={found.discovery} />
          </div>
        ) : (
          <p role="status" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            Not usable: {found.reason}
          </p>
        )
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Display name" value={values.name} onChange={set("name")} />
        <Field label="City and region" hint="Patients search by name or city in Connect." placeholder="Springfield, IL" value={values.location} onChange={set("location")} />
        <Field label="Client id" value={values.clientId} onChange={set("clientId")} autoComplete="off" />
        <Field label="Client secret" type="password" hint="Stored encrypted; leave empty for a public client." value={values.clientSecret} onChange={set("clientSecret")} autoComplete="new-password" />
      </div>
      <Button type="submit" pending={pending === "add"}>
        Add health system
      </Button>
    </form>
  );
}

export function ProviderControls({ provider }: { provider: { id: string; name: string; location: string; clientId: string; disabled: boolean } }) {
  const [name, setName] = useState(provider.name);
  const [location, setLocation] = useState(provider.location);
  const [clientId, setClientId] = useState(provider.clientId);
  const [clientSecret, setClientSecret] = useState("");
  const [pending, setPending] = useState<string | null>(null);
  async function run(what: string, action: () => Promise<ActionResult>) {
    setPending(what);
    const result = await action();
    setPending(null);
    announce(result);
    return result.ok;
  }
  return (
    <div className="space-y-4">
      <form
        method="post"
        noValidate
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_1fr_auto] lg:items-end"
        onSubmit={async (event) => {
          event.preventDefault();
          if (await run("save", () => updateProviderAction(provider.id, { name, location, clientId, clientSecret: clientSecret || undefined }))) setClientSecret("");
        }}
      >
        <Field label={`Name of ${provider.name}`} value={name} onChange={(event) => setName(event.target.value)} />
        <Field label={`City and region of ${provider.name}`} value={location} onChange={(event) => setLocation(event.target.value)} />
        <Field label={`Client id of ${provider.name}`} value={clientId} onChange={(event) => setClientId(event.target.value)} autoComplete="off" />
        <Field label={`New client secret of ${provider.name}`} type="password" hint="Empty keeps the stored one." value={clientSecret} onChange={(event) => setClientSecret(event.target.value)} autoComplete="new-password" />
        <Button type="submit" variant="secondary" pending={pending === "save"}>
          Save
        </Button>
      </form>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" pending={pending === "test"} onClick={() => run("test", () => testProviderAction(provider.id))}>
          Test connection to {provider.name}
        </Button>
        <Button size="sm" variant={provider.disabled ? "secondary" : "danger"} pending={pending === "toggle"} onClick={() => run("toggle", () => setProviderDisabledAction(provider.id, !provider.disabled))}>
          {provider.disabled ? `Enable ${provider.name}` : `Disable ${provider.name}`}
        </Button>
      </div>
    </div>
  );
}

/** Re-run every sync of the provider (after fixing it), or one subject's source from its failure row. */
export function RerunSyncButton({ target, label, accessibleName }: { target: { providerId: string } | { sourceId: string }; label: string; accessibleName?: string }) {
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      pending={pending}
      aria-label={accessibleName}
      onClick={async () => {
        setPending(true);
        const result = "providerId" in target ? await rerunProviderSyncsAction(target.providerId) : await rerunSourceSyncAction(target.sourceId);
        setPending(false);
        announce(result);
      }}
    >
      {label}
    </Button>
  );
}
