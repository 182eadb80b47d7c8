"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import {
  allowlistAction,
  deleteApplicationAction,
  redirectUrlsAction,
  renameAction,
  syncModeAction,
} from "@/app/(dashboard)/dashboard/[appId]/settings/actions";
import { redirectUrlsInputSchema, renameApplicationInputSchema } from "@/lib/applications/schemas";
import type { ActionResult } from "@/lib/dashboard";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { Field, FieldError } from "@/components/ui/field";

export type SettingsApplication = {
  id: string;
  name: string;
  categoryAllowlist: string[];
  syncMode: "one-time" | "continuous";
  redirectUrls: string[];
  productionEnabled: boolean;
  status: "sandbox" | "active" | "suspended";
};

export type CategoryOption = { category: string; label: string; description: string; fhir: string };

/** Shows the outcome of a save as a toast; true when it worked. */
export function announce(result: ActionResult): boolean {
  if (result.ok) toast.success(result.message);
  else toast.error(result.error);
  return result.ok;
}

export function Section({ title, description, children, id }: { title: string; description?: ReactNode; children: ReactNode; id: string }) {
  return (
    <Card>
      <div aria-labelledby={id} role="group">
        <CardHeader title={title} description={description} headingId={id} />
        <CardBody>{children}</CardBody>
      </div>
    </Card>
  );
}

export function RenameForm({ application }: { application: SettingsApplication }) {
  const form = useForm<{ name: string }>({ resolver: zodResolver(renameApplicationInputSchema), defaultValues: { name: application.name } });
  const submit = form.handleSubmit(async (values) => {
    if (announce(await renameAction(application.id, values))) form.reset(values);
  });
  return (
    <Section id="settings-name" title="Name" description="Patients see this name in the Connect flow and on their consent receipt.">
      <form method="post" onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field className="sm:w-96" label="Application name" error={form.formState.errors.name?.message} {...form.register("name")} />
        <Button type="submit" pending={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
          Save name
        </Button>
      </form>
    </Section>
  );
}

export function AllowlistForm({ application, categories }: { application: SettingsApplication; categories: CategoryOption[] }) {
  const form = useForm<{ categories: string[] }>({ defaultValues: { categories: application.categoryAllowlist } });
  const [error, setError] = useState<string>();
  const submit = form.handleSubmit(async (values) => {
    if (values.categories.length === 0) return setError("Allow at least one category.");
    setError(undefined);
    if (announce(await allowlistAction(application.id, values))) form.reset(values);
  });
  return (
    <Section
      id="settings-categories"
      title="Category allowlist"
      description="The record categories this application may ask patients to share. Connect sessions asking for anything else are refused with app_scope_exceeded."
    >
      <form method="post" onSubmit={submit} noValidate className="space-y-4">
        <fieldset>
          <legend className="sr-only">Allowed categories</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {categories.map((option) => (
              <label key={option.category} className="flex gap-3 rounded-md border border-slate-200 p-3 text-sm hover:border-slate-300">
                <input type="checkbox" value={option.category} className="mt-1 h-4 w-4 accent-teal-800" {...form.register("categories")} />
                <span>
                  <span className="font-medium text-slate-900">{option.label}</span>{" "}
                  <span className="font-mono text-xs text-slate-600">{option.category}</span>
                  <span className="block text-slate-700">{option.description}</span>
                  <span className="block text-xs text-slate-600">FHIR: {option.fhir}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <FieldError message={error} />
        <Button type="submit" pending={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
          Save allowlist
        </Button>
      </form>
    </Section>
  );
}

export function SyncModeForm({ application }: { application: SettingsApplication }) {
  const form = useForm<{ syncMode: "one-time" | "continuous" }>({ defaultValues: { syncMode: application.syncMode } });
  const submit = form.handleSubmit(async (values) => {
    if (announce(await syncModeAction(application.id, values))) form.reset(values);
  });
  const options = [
    { value: "one-time", title: "One-time", text: "Records are imported once, when the patient connects." },
    { value: "continuous", title: "Continuous", text: "Sources are re-imported on a schedule while consent lasts; read the change feed for updates." },
  ] as const;
  return (
    <Section id="settings-sync" title="Sync mode" description="How long a patient's sources keep being imported after they connect.">
      <form method="post" onSubmit={submit} noValidate className="space-y-4">
        <fieldset className="space-y-2">
          <legend className="sr-only">Sync mode</legend>
          {options.map((option) => (
            <label key={option.value} className="flex gap-3 text-sm">
              <input type="radio" value={option.value} className="mt-1 h-4 w-4 accent-teal-800" {...form.register("syncMode")} />
              <span>
                <span className="font-medium text-slate-900">{option.title}</span>
                <span className="block text-slate-700">{option.text}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Button type="submit" pending={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
          Save sync mode
        </Button>
      </form>
    </Section>
  );
}

export function RedirectUrlsForm({ application }: { application: SettingsApplication }) {
  const form = useForm<{ text: string }>({ defaultValues: { text: application.redirectUrls.join("\n") } });
  const submit = form.handleSubmit(async ({ text }) => {
    const redirectUrls = text.split("\n").map((line) => line.trim()).filter(Boolean);
    const parsed = redirectUrlsInputSchema.safeParse({ redirectUrls });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const line = typeof issue?.path[1] === "number" ? `Line ${issue.path[1] + 1}: ` : "";
      return form.setError("text", { message: `${line}${issue?.message ?? "Check the URLs."}` });
    }
    if (announce(await redirectUrlsAction(application.id, parsed.data))) form.reset({ text: parsed.data.redirectUrls.join("\n") });
  });
  const error = form.formState.errors.text?.message;
  return (
    <Section
      id="settings-redirects"
      title="Redirect URLs"
      description="Where the Connect flow may send the patient back (redirectUrl must match one exactly). https only, except http://localhost; in the sandbox any http://localhost URL works without registering."
    >
      <form method="post" onSubmit={submit} noValidate className="space-y-3">
        <label htmlFor="redirect-urls" className="block text-sm font-medium text-slate-800">
          One URL per line (up to 10)
        </label>
        <textarea
          id="redirect-urls"
          rows={4}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30"
          placeholder="https://app.example.com/connected"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "redirect-urls-error" : undefined}
          {...form.register("text")}
        />
        <FieldError id="redirect-urls-error" message={error} />
        <Button type="submit" pending={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
          Save redirect URLs
        </Button>
      </form>
    </Section>
  );
}

export function DeleteCard({ application, canDelete }: { application: SettingsApplication; canDelete: boolean }) {
  return (
    <Section id="settings-delete" title="Delete application" description="Deletes its keys, webhooks, patients' shared records, consent receipts and usage history. This cannot be undone.">
      {canDelete ? null : <p className="mb-3 text-sm text-slate-600">Only owners delete an application.</p>}
      <ConfirmAction
        label="Delete application"
        size="md"
        disabled={!canDelete}
        title={`Delete ${application.name}?`}
        description={<p>Its keys stop working at once and everything it holds is erased. Type the application&apos;s name to confirm.</p>}
        requireText={application.name}
        confirmLabel="Delete forever"
        action={() => deleteApplicationAction(application.id)}
      />
    </Section>
  );
}
