"use server";

import { revalidatePath } from "next/cache";
import { revealSigningSecret, rotateSigningSecretFor, setWebhookUrl } from "@/lib/applications";
import { notifySecurity } from "@/lib/account-security";
import { applicationAction, requireStepUpFor, withApplication, type ActionFailure } from "@/lib/dashboard";
import { requirePermission, TeamError, type ApplicationAccess } from "@/lib/team";
import { isSampleEventType, resendDelivery, sendTestEvent } from "@/lib/webhooks";

export type RevealedSecret = { ok: true; secret: string; previousExpiresAt: string | null; message: string } | ActionFailure;

export async function setWebhookUrlAction(applicationId: string, input: { webhookUrl: string | null }) {
  return applicationAction(
    applicationId,
    (access) => setWebhookUrl(access, input),
    (saved) => (saved.webhookUrl ? `Webhooks now go to ${saved.webhookUrl}.` : "Webhook URL removed: no more deliveries are made."),
  );
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
  const outcome = await withApplication(applicationId, act);
  if (!outcome.ok) return outcome;
  const until = outcome.value.previousExpiresAt?.toISOString() ?? null;
  return { ok: true, secret: outcome.value.secret, previousExpiresAt: until, message: message(until) };
}

/** Revealing and rotating the signing secret ask for the second factor again after a few minutes (step-up). */
export async function revealSecretAction(applicationId: string): Promise<RevealedSecret> {
  await requireStepUpFor(applicationId, "webhooks.reveal_secret");
  return secretAction(applicationId, revealSigningSecret, () => "Signing secret revealed.");
}

export async function rotateSecretAction(applicationId: string): Promise<RevealedSecret> {
  await requireStepUpFor(applicationId, "webhooks.rotate_secret");
  return secretAction(
    applicationId,
    async (access) => {
      const rotated = await rotateSigningSecretFor(access);
      revalidatePath(`/dashboard/${access.application.id}/webhooks`);
      await notifySecurity(access.developerId, "signing_secret_rotated", { application: access.application.name });
      return rotated;
    },
    (until) => `Signing secret rotated. The old secret keeps verifying until ${until ? untilText(until) : "24 hours from now"}.`,
  );
}

export async function sendTestEventAction(applicationId: string, type: unknown = "webhook.test") {
  return applicationAction(
    applicationId,
    async (access) => {
      requirePermission(access, "application.manage");
      if (!isSampleEventType(type)) throw new TeamError("invalid_input", "Choose one of the listed event types.");
      const sent = await sendTestEvent(access.application.id, access.application.productionEnabled ? "live" : "sandbox", type);
      if (!sent.ok) throw new TeamError("invalid_input", "Set a webhook URL first: there is nowhere to send the test event.");
      return { eventId: sent.eventId, type };
    },
    ({ eventId, type: sent }) =>
      sent === "webhook.test" ? `Test event ${eventId} queued for delivery. It shows in the delivery log below.` : `Sample ${sent} event ${eventId} queued for delivery. It shows in the delivery log below.`,
  );
}

const RESEND_REFUSALS = {
  not_found: "That delivery was not found.",
  no_webhook_url: "Set a webhook URL first: there is nowhere to re-send it.",
} as const;

export async function resendDeliveryAction(applicationId: string, deliveryId: string) {
  return applicationAction(
    applicationId,
    async (access) => {
      requirePermission(access, "application.manage");
      if (typeof deliveryId !== "string") throw new TeamError("not_found", RESEND_REFUSALS.not_found);
      const resent = await resendDelivery(deliveryId, access.application.id);
      if (!resent.ok) throw new TeamError(resent.reason === "not_found" ? "not_found" : "invalid_input", RESEND_REFUSALS[resent.reason]);
      return resent.deliveryId;
    },
    (newDeliveryId) => `Re-sent as a new delivery (${newDeliveryId}) to the current URL.`,
  );
}
