"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { createApplicationAction } from "@/app/(dashboard)/dashboard/actions";
import { createApplicationInputSchema, type CreateApplicationInput } from "@/lib/applications/schemas";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, FormAlert } from "@/components/ui/field";

export function CreateApplicationButton({ label = "New application" }: { label?: string }) {
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<CreateApplicationInput>({ resolver: zodResolver(createApplicationInputSchema), defaultValues: { name: "" } });
  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await createApplicationAction(values);
    if (result) setRefusal(result.error);
  });
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Create an application"
      description="Applications start in the sandbox with synthetic patients. You can enable live data later."
      trigger={
        <Button>
          <Plus aria-hidden="true" className="h-4 w-4" />
          {label}
        </Button>
      }
    >
      <form method="post" onSubmit={submit} noValidate className="space-y-4">
        <FormAlert message={refusal} />
        <Field label="Application name" placeholder="e.g. Care Companion" error={form.formState.errors.name?.message} {...form.register("name")} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" pending={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? "Creating…" : "Create application"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
