"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { setWebhookUrlAction } from "@/app/(dashboard)/dashboard/[appId]/webhooks/actions";
import { webhookUrlInputSchema } from "@/lib/applications/schemas";
import { Button } from "@/components/ui/button";
import { Field, FormAlert } from "@/components/ui/field";
import { CopyableValue } from "@/components/ui/copyable-value";

/** The rules the URL is held to: `requested` is the live rules while an operator reviews a production request. */
export type EndpointRules = "sandbox" | "requested" | "live";

type EndpointFormProps = { applicationId: string; webhookUrl: string | null; rules: EndpointRules; canManage: boolean; localReceivers: boolean };

/** The endpoint deliveries go to; the domain checks it against the sandbox or live rules and its refusal is shown as is. */
export function EndpointForm({ applicationId, webhookUrl, rules, canManage, localReceivers }: EndpointFormProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<{ webhookUrl: string | null }>({ resolver: zodResolver(webhookUrlInputSchema), defaultValues: { webhookUrl: webhookUrl ?? "" } });

  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await setWebhookUrlAction(applicationId, { webhookUrl: values.webhookUrl || null });
    if (!result.ok) return setRefusal(result.error);
    toast.success(result.message);
    form.reset({ webhookUrl: values.webhookUrl ?? "" });
  });

  return (
    <form method="post" onSubmit={submit} noValidate className="space-y-4" aria-label="Webhook endpoint">
      <FormAlert message={refusal} />
      <Field
        label="Endpoint URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/webhooks/chartkey"
        disabled={!canManage}
        error={form.formState.errors.webhookUrl?.message}
        hint={
          rules === "live"
            ? "Production is enabled, so live rules apply: https only, and the host must be public (no localhost, private or reserved addresses)."
            : rules === "requested"
              ? "Production has been requested, so live rules apply from now on: https only, and the host must be public (no localhost, private or reserved addresses)."
              : localReceivers
              ? "Sandbox rules apply: http or https; this deployment also allows receivers on localhost and private networks for local development. Once production is enabled the URL must be https on a public host."
              : "Sandbox rules apply: http or https, and the host must be public (a tunnel can forward to a receiver on your machine). Once production is enabled the URL must be https."
        }
        {...form.register("webhookUrl")}
      />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">
          {webhookUrl ? (
            <>
              Current: <CopyableValue value={webhookUrl} what="Webhook URL" />
            </>
          ) : (
            "No endpoint yet: events are not delivered until you set one. Leave it empty and save to stop deliveries."
          )}
        </p>
        <Button type="submit" pending={form.formState.isSubmitting} disabled={!canManage || !form.formState.isDirty} className="shrink-0">
          {form.formState.isSubmitting ? "Saving…" : "Save URL"}
        </Button>
      </div>
    </form>
  );
}
