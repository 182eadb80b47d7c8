"use client";

import { useForm } from "react-hook-form";
import { requestProductionAction } from "@/app/(dashboard)/dashboard/[appId]/settings/actions";
import { productionRequestInputSchema } from "@/lib/applications/schemas";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, FieldError, INPUT_CLASS } from "@/components/ui/field";
import { announce, Section, type SettingsApplication } from "./settings-forms";

/** The newest production request as the settings page shows it (dates as ISO strings for the client). */
export type ProductionRequestView = {
  status: "pending" | "approved" | "refused";
  description: string;
  redirectUrls: string[];
  decisionReason: string | null;
  createdAt: string;
  decidedAt: string | null;
};

type Props = {
  application: SettingsApplication;
  request: ProductionRequestView | null;
  suspensionReason: string | null;
  canRequest: boolean;
  contactEmail: string;
};

const day = (iso: string) => iso.slice(0, 10);

/**
 * Production as the developer sees it: an operator of the deployment decides. The card shows where the request
 * stands (waiting, refused with the operator's reason, approved) and asks again after a refusal.
 */
export function ProductionRequestCard({ application, request, suspensionReason, canRequest, contactEmail }: Props) {
  return (
    <Section id="settings-production" title="Production" description="Live keys reach real patients' records from health systems, under each patient's consent. An operator of this deployment approves each application.">
      <div className="space-y-4 text-sm text-slate-800">
        {application.status === "suspended" ? (
          <div role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
            <p className="font-medium">This application is suspended: every key answers 403 app_suspended.</p>
            {suspensionReason ? <p className="mt-1">Operator&apos;s reason: {suspensionReason}</p> : null}
          </div>
        ) : null}
        {application.productionEnabled ? (
          <p>
            <Badge tone="success">Approved</Badge> Production is enabled. Live keys (ck_live_…) work; create them on the API keys page.
          </p>
        ) : request?.status === "pending" ? (
          <p>
            <Badge tone="info">Waiting for review</Badge> Requested on {day(request.createdAt)}. Live keys answer 403 production_not_enabled until an operator approves.
          </p>
        ) : (
          <>
            {request?.status === "refused" ? (
              <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
                <p>
                  <Badge tone="warning">Refused</Badge> on {day(request.decidedAt ?? request.createdAt)}.
                </p>
                <p className="mt-1">Operator&apos;s reason: {request.decisionReason}</p>
                <p className="mt-1">Address it and ask again.</p>
              </div>
            ) : (
              <p>Production is off: only sandbox keys work, and only with synthetic patients.</p>
            )}
            {canRequest ? (
              application.status === "suspended" ? null : <RequestForm application={application} previous={request} contactEmail={contactEmail} />
            ) : (
              <p className="text-slate-600">Only owners ask for production.</p>
            )}
          </>
        )}
      </div>
    </Section>
  );
}

type FormValues = { description: string; redirectUrls: string; contactEmail: string };

/** Asking again after a refusal starts from what was asked the last time; a first request from the registered https URLs. */
function RequestForm({ application, previous, contactEmail }: { application: SettingsApplication; previous: ProductionRequestView | null; contactEmail: string }) {
  const form = useForm<FormValues>({
    defaultValues: {
      description: previous?.description ?? "",
      redirectUrls: (previous?.redirectUrls ?? application.redirectUrls.filter((url) => url.startsWith("https://"))).join("\n"),
      contactEmail,
    },
  });
  const submit = form.handleSubmit(async (values) => {
    const parsed = productionRequestInputSchema.safeParse({
      description: values.description,
      redirectUrls: values.redirectUrls.split("\n").map((line) => line.trim()).filter(Boolean),
      contactEmail: values.contactEmail,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FormValues;
        const line = field === "redirectUrls" && typeof issue.path[1] === "number" ? `Line ${issue.path[1] + 1}: ` : "";
        form.setError(field, { message: `${line}${issue.message}` });
      }
      return;
    }
    announce(await requestProductionAction(application.id, parsed.data));
  });
  const errors = form.formState.errors;
  return (
    <form method="post" onSubmit={submit} noValidate className="space-y-3">
      <div>
        <label htmlFor="production-description" className="block text-sm font-medium text-slate-800">
          What the application does
        </label>
        <textarea
          id="production-description"
          rows={4}
          className={`${INPUT_CLASS} mt-1`}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? "production-description-error" : undefined}
          {...form.register("description")}
        />
        <FieldError id="production-description-error" message={errors.description?.message} />
      </div>
      <div>
        <label htmlFor="production-redirects" className="block text-sm font-medium text-slate-800">
          Production redirect URLs (https, one per line)
        </label>
        <textarea
          id="production-redirects"
          rows={3}
          className={`${INPUT_CLASS} mt-1 font-mono`}
          placeholder="https://app.example.com/connected"
          aria-invalid={errors.redirectUrls ? true : undefined}
          aria-describedby={errors.redirectUrls ? "production-redirects-error" : undefined}
          {...form.register("redirectUrls")}
        />
        <FieldError id="production-redirects-error" message={errors.redirectUrls?.message} />
      </div>
      <Field className="sm:w-96" type="email" label="Contact email" hint="Whom the operator writes to about this application." error={errors.contactEmail?.message} {...form.register("contactEmail")} />
      <Button type="submit" pending={form.formState.isSubmitting}>
        Ask for production
      </Button>
    </form>
  );
}
