import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { postWebhook, USER_AGENT, webhookSignature, type SealedSigningSecrets } from "@/lib/webhooks";
import { PROBE_TIMEOUT_MS } from "./limits";
import type { ProbeAnswer, ProbeKind } from "./run-row";

/** Standard Webhooks receivers refuse timestamps more than 5 minutes off; the stale probe is twice that old. */
const STALE_MS = 10 * 60_000;

type Probe = { kind: ProbeKind; webhookId: string; at: Date; body: string; signature: string };

/**
 * Sends the webhook probes to the application's webhook URL through the platform's outbound path (its address
 * checks apply), one after another, and returns each answer: a valid delivery, four corrupted ones (a signature of
 * random bytes, a body changed after signing, a timestamp outside the tolerance, another secret), then the valid
 * one again as a retry sends it: same webhook-id and body, fresh timestamp and signature. An application without a
 * webhook URL gets none.
 */
export async function sendProbes(applicationId: string, runId: string): Promise<ProbeAnswer[]> {
  const application = await db().application.findUniqueOrThrow({
    where: { id: applicationId },
    select: { webhookUrl: true, signingSecretEncrypted: true, previousSigningSecretEncrypted: true, previousSigningSecretExpiresAt: true },
  });
  if (!application.webhookUrl) return [];
  const secrets: SealedSigningSecrets = {
    current: application.signingSecretEncrypted,
    previous: application.previousSigningSecretEncrypted,
    previousExpiresAt: application.previousSigningSecretExpiresAt,
  };
  const payload = (id: string, at: Date) =>
    JSON.stringify({
      id,
      type: "conformance.probe",
      timestamp: at.toISOString(),
      environment: "sandbox",
      data: { runId, message: "A conformance probe: answer 2xx when its signature verifies, 4xx when it does not." },
    });
  const signed = (kind: ProbeKind, id: string, at: Date, body = payload(id, at)): Probe => ({ kind, webhookId: id, at, body, signature: webhookSignature(secrets, id, at, body) });

  const answers: ProbeAnswer[] = [];
  const send = async (probe: Probe) => {
    const result = await postWebhook(
      application.webhookUrl!,
      "sandbox",
      probe.body,
      {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": probe.webhookId,
        "webhook-timestamp": Math.floor(probe.at.getTime() / 1000).toString(),
        "webhook-signature": probe.signature,
      },
      PROBE_TIMEOUT_MS,
    );
    answers.push({ kind: probe.kind, webhookId: probe.webhookId, status: result.status, latencyMs: result.latencyMs, error: result.error });
  };

  const valid = signed("valid", newId("evt_"), new Date());
  await send(valid);
  await send({ ...signed("bad_signature", newId("evt_"), new Date()), signature: `v1,${randomBytes(32).toString("base64")}` });
  const tampered = signed("tampered_body", newId("evt_"), new Date());
  await send({ ...tampered, body: tampered.body.replace("answer 2xx", "answer 200") });
  await send(signed("stale_timestamp", newId("evt_"), new Date(Date.now() - STALE_MS)));
  const otherSecret = new Webhook(randomBytes(24).toString("base64"));
  const wrong = signed("wrong_secret", newId("evt_"), new Date());
  await send({ ...wrong, signature: otherSecret.sign(wrong.webhookId, wrong.at, wrong.body) });
  const retriedAt = new Date();
  await send({ kind: "redelivery", webhookId: valid.webhookId, at: retriedAt, body: valid.body, signature: webhookSignature(secrets, valid.webhookId, retriedAt, valid.body) });
  return answers;
}
