"use client";

import { ExternalLink, Link2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { createSessionAction } from "@/app/(dashboard)/dashboard/[appId]/sandbox/actions";
import { Button, buttonClass } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyableValue } from "@/components/ui/copyable-value";
import { Field, FormAlert } from "@/components/ui/field";

type CreatedSession = { id: string; connectUrl: string; expiresAt: string };

/** Creates a pending sandbox Connect session from the allowlist's categories and hands out its hosted-flow link. */
export function CreateSessionForm({ applicationId, categories }: { applicationId: string; categories: { id: string; description: string }[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState<string[]>(categories.map((category) => category.id));
  const [externalUserId, setExternalUserId] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedSession | null>(null);
  const [pending, startTransition] = useTransition();

  function toggle(id: string, on: boolean) {
    setChosen((current) => (on ? [...current, id] : current.filter((category) => category !== id)));
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setRefusal(null);
    startTransition(async () => {
      const ordered = categories.map((category) => category.id).filter((id) => chosen.includes(id));
      const result = await createSessionAction(applicationId, { categories: ordered, externalUserId: externalUserId || undefined });
      if (!result.ok) {
        setRefusal(result.error);
        toast.error(result.error);
        return;
      }
      setCreated(result.value);
      toast.success(`Connect session ${result.value.id} created; its link is valid for 60 minutes.`);
      router.refresh();
    });
  }

  return (
    <div className="space-y-4">
      <form method="post" onSubmit={submit} className="space-y-4" aria-label="Create a Connect session">
        <FormAlert message={refusal} />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Categories to ask for</legend>
          <p className="text-xs text-slate-600">Only your application&apos;s allowlisted categories can be asked for.</p>
          <div className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-2">
            {categories.map((category) => (
              <label key={category.id} className="flex items-start gap-2 text-sm text-slate-800">
                <input type="checkbox" className="mt-0.5 h-4 w-4 accent-teal-800" checked={chosen.includes(category.id)} onChange={(event) => toggle(category.id, event.target.checked)} />
                <span>
                  <span className="font-medium">{category.id}</span>
                  <span className="block text-xs text-slate-600">{category.description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <Field
          label="External user id (optional)"
          hint="Your id for the user; completed sessions with the same one share a subject."
          value={externalUserId}
          maxLength={200}
          onChange={(event) => setExternalUserId(event.target.value)}
          autoComplete="off"
        />
        <Button type="submit" pending={pending} disabled={chosen.length === 0}>
          <Link2 aria-hidden="true" className="h-4 w-4" />
          {pending ? "Creating…" : "Create session"}
        </Button>
      </form>
      {created ? (
        <div className="space-y-3 rounded-md border border-teal-200 bg-teal-50 p-4" aria-live="polite">
          <p className="text-sm font-medium text-slate-900">
            Session <CopyableValue value={created.id} what="Session id" /> is waiting for the patient.
          </p>
          <CodeBlock code={created.connectUrl} what="Connect link" label="Hosted Connect link (valid until the session expires)" />
          <div className="flex flex-wrap gap-2">
            <a href={created.connectUrl} target="_blank" rel="noopener noreferrer" className={buttonClass("primary", "sm")}>
              <ExternalLink aria-hidden="true" className="h-4 w-4" />
              Open the hosted flow
              <span className="sr-only">(opens in a new tab)</span>
            </a>
            <a href={`/dashboard/${applicationId}/sandbox/sessions/${created.id}`} className={buttonClass("secondary", "sm")}>
              Watch the session
            </a>
          </div>
        </div>
      ) : null}
    </div>
  );
}
