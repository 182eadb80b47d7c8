"use server";

import { revalidatePath } from "next/cache";
import { revealSigningSecret, rotateSigningSecretFor, setWebhookUrl } from "@/lib/applications";
import { actionFailure, applicationAccess } from "@/lib/dashboard";
import { requirePermission, type ApplicationAccess } from "@/lib/team";
import { resendDelivery, sendTestEvent } from "@/lib/webhooks";

const NOT_FOUND = { ok: false as const, error: "Application not found." };

export type RevealedSecret = { ok: true; secret: string; previousExpiresAt: string | null; message: string } | { ok: false; error: string };

function webhooksPath(applicationId: string) {
  return `/dashboard/${applicationId}/webhooks`;
}

export async function setWebhookUrlAction(applicationId: string, input: { webhookUrl: string | null }) {
  const access = await applicationAccess(applicationId);
  if (!access) return NOT_FOUND;
  try {
    const saved = await setWebhookUrl(access, input);
    revalidatePath(webhooksPath(applicationId));
    return { ok: true as const, message: saved.webhookUrl ? `Webhooks now go to ${saved.webhookUrl}.` : "Webhook URL removed: no more deliveries are made." };
  } catch (error) {
    return actionFailure(error);
  }
}

function untilText(iso: string): string {
  return `${iso.replace("T", " ").slice(0, 16)} UTC`;
}

/** Reveal and rotate answer alike: the secret in clear, and until when the previous one keeps verifying. */
async function secretAction(
  applicationId: string,
  act: (access: ApplicationAccess) => Promise<{ secret: string; previousExpiresAt: Date | null }>,
  message: (until: string | null) => string,
): Promise<RevealedSecret> {
  const access = await applicationAccess(applicationId);
  if (!access) return NOT_FOUND;
  try {
    const { secret, previousExpiresAt } = await act(access);
    const until = previousExpiresAt?.toISOString() ?? null;
    return { ok: true, secret, previousExpiresAt: until, message: message(until) };
  } catch (error) {
    return actionFailure(error);
  }
}

export async function revealSecretAction(applicationId: string): Promise<RevealedSecret> {
  return secretAction(applicationId, revealSigningSecret, () => "Signing secret revealed.");
}

export async function rotateSecretAction(applicationId: string): Promise<RevealedSecret> {
  return secretAction(
    applicationId,
    async (access) => {
      const rotated = await rotateSigningSecretFor(access);
      revalidatePath(webhooksPath(applicationId));
      return rotated;
    },
    (until) => `Signing secret rotated. The old secret keeps verifying until ${until ? untilText(until) : "24 hours from now"}.`,
  );
}

export async function sendTestEventAction(applicationId: string) {
  const access = await applicationAccess(applicationId);
  if (!access) return NOT_FOUND;
  try {
    requirePermission(access, "application.manage");
    const environment = access.application.productionEnabled ? "live" : "sandbox";
    const sent = await sendTestEvent(access.application.id, environment);
    if (!sent.ok) return { ok: false as const, error: "Set a webhook URL first: there is nowhere to send the test event." };
    revalidatePath(webhooksPath(applicationId));
    return { ok: true as const, message: `Test event ${sent.eventId} queued for delivery. It shows in the delivery log below.` };
  } catch (error) {
    return actionFailure(error);
  }
}

const RESEND_REFUSALS = {
  not_found: "That delivery was not found.",
  still_pending: "That delivery is still being retried; re-send it once it has succeeded or failed.",
  no_webhook_url: "Set a webhook URL first: there is nowhere to re-send it.",
} as const;

export async function resendDeliveryAction(applicationId: string, deliveryId: string) {
  const access = await applicationAccess(applicationId);
  if (!access) return NOT_FOUND;
  try {
    requirePermission(access, "application.manage");
    if (typeof deliveryId !== "string") return { ok: false as const, error: RESEND_REFUSALS.not_found };
    const resent = await resendDelivery(deliveryId, access.application.id);
    if (!resent.ok) return { ok: false as const, error: RESEND_REFUSALS[resent.reason] };
    revalidatePath(webhooksPath(applicationId), "layout");
    return { ok: true as const, message: `Re-sent as a new delivery (${resent.deliveryId}) to the current URL.`, deliveryId: resent.deliveryId };
  } catch (error) {
    return actionFailure(error);
  }
}
