"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { createKeyAction, type CreatedKey } from "@/app/(dashboard)/dashboard/[appId]/keys/actions";
import { createApiKeyInputSchema, type CreateApiKeyInput } from "@/lib/applications/schemas";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormAlert } from "@/components/ui/field";

type CreateKeyProps = { applicationId: string; origin: string; canCreate: { sandbox: boolean; live: boolean }; liveEnabled: boolean };

/** Creates a key and shows its secret once, with a copy button and the curl line that uses it. */
export function CreateKeyButton({ applicationId, origin, canCreate, liveEnabled }: CreateKeyProps) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<Extract<CreatedKey, { ok: true }> | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<CreateApiKeyInput>({ resolver: zodResolver(createApiKeyInputSchema), defaultValues: { name: "", environment: "sandbox" } });

  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await createKeyAction(applicationId, values);
    if (!result.ok) return setRefusal(result.error);
    setCreated(result);
    // It asks the developer to act (copy the key before closing), so it stays longer than a plain confirmation.
    toast.success(`${values.environment === "live" ? "Live" : "Sandbox"} key created. Copy it now: it is not shown again.`, { duration: 10_000 });
  });

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setCreated(null);
      setRefusal(null);
      form.reset();
    }
  }

  const liveReason = !canCreate.live ? "Only owners create live keys." : !liveEnabled ? "Ask for production in Settings first; an operator approves it." : null;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={created ? "Your new API key" : "Create an API key"}
      description={created ? "This is the only time the whole key is shown. It is stored only as a hash." : "Name it after what will use it, so you know what breaks if you revoke it."}
      trigger={
        <Button disabled={!canCreate.sandbox && !canCreate.live}>
          <KeyRound aria-hidden="true" className="h-4 w-4" />
          Create key
        </Button>
      }
    >
      {created ? (
        <div className="space-y-4">
          <CodeBlock code={created.key} what="API key" label="Secret key" />
          <CodeBlock code={`curl ${origin}/api/v1/app \\\n  -H "Authorization: Bearer ${created.key}"`} what="curl command" label="Try it" />
          <div className="flex justify-end">
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </div>
        </div>
      ) : (
        <form method="post" onSubmit={submit} noValidate className="space-y-4">
          <FormAlert message={refusal} />
          <Field label="Key name" placeholder="e.g. Production backend" error={form.formState.errors.name?.message} {...form.register("name")} />
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Environment</legend>
            <div className="mt-2 space-y-2">
              <label className="flex items-start gap-2 text-sm">
                <input type="radio" value="sandbox" className="mt-1" disabled={!canCreate.sandbox} {...form.register("environment")} />
                <span>
                  <span className="font-medium">Sandbox</span> <span className="font-mono text-xs">ck_test_…</span>
                  <span className="block text-slate-600">Synthetic patients only.</span>
                </span>
              </label>
              <label className="flex items-start gap-2 text-sm">
                <input type="radio" value="live" className="mt-1" disabled={liveReason !== null} {...form.register("environment")} />
                <span>
                  <span className="font-medium">Live</span> <span className="font-mono text-xs">ck_live_…</span>
                  <span className="block text-slate-600">{liveReason ?? "Real patients' records, under their consent."}</span>
                </span>
              </label>
            </div>
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? "Creating…" : "Create key"}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
