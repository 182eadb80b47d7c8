import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { acceptInvitation, createInvitation, ForbiddenError, getApplicationAccess } from "@/lib/team";
import { webhookDeliveryJob } from "@/lib/webhooks";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { waitFor } from "@/test/webhook-receiver";
import { revealSigningSecret, rotateSigningSecret, rotateSigningSecretFor } from "@/lib/applications";

// A receiver that keeps each delivery's raw body and headers, so the test can verify it with any secret.
type Raw = { body: string; headers: Record<string, string> };
const deliveries: Raw[] = [];
let server: http.Server;
let origin: string;
let worker: RunningWorker;

beforeAll(async () => {
  // The receiver listens on loopback, which only a deployment that opts in lets sandbox webhooks reach.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers as Record<string, string> });
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await worker.stop();
  await stopSender();
  await new Promise((resolve) => server.close(resolve));
});

function verifies(secret: string, delivery: Raw): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers);
    return true;
  } catch {
    return false;
  }
}

async function deliverOne(applicationId: string): Promise<Raw> {
  const event = await recordEvent({ applicationId, environment: "sandbox", type: "webhook.test", data: {} });
  return waitFor(() => deliveries.find((delivery) => delivery.headers["webhook-id"] === event.id), "the delivery");
}

describe("signing secret rotation", () => {
  it("deliveries verify with the old and the new secret for 24 hours, then with the new one only", async () => {
    const { application } = await createTestApplication({ webhookUrl: `${origin}/hooks` });
    const old = decryptSecret(application.signingSecretEncrypted);

    const rotated = await rotateSigningSecret(application.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);
    const during = await deliverOne(application.id);
    expect(verifies(old, during)).toBe(true);
    expect(verifies(rotated.secret, during)).toBe(true);

    // A rotation made 24 hours ago: its previous secret has expired and signs nothing.
    const dayAgo = await rotateSigningSecret(application.id, new Date(Date.now() - 24 * 3600_000 - 1000));
    const after = await deliverOne(application.id);
    expect(verifies(rotated.secret, after)).toBe(false);
    expect(verifies(dayAgo.secret, after)).toBe(true);
    const stored = await db().application.findUniqueOrThrow({ where: { id: application.id } });
    expect(decryptSecret(stored.previousSigningSecretEncrypted!)).toBe(rotated.secret);
    expect(stored.previousSigningSecretExpiresAt!.getTime()).toBeLessThan(Date.now());
  });

  it("only owners reveal or rotate the secret; another application's secret is never touched", async () => {
    const { application, developer } = await createTestApplication();
    const other = await createTestApplication();
    const invitee = await createTestDeveloper();
    const { token } = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "member" });
    await acceptInvitation({ token, developerId: invitee.id });
    const owner = (await getApplicationAccess(developer.id, application.id))!;
    const member = (await getApplicationAccess(invitee.id, application.id))!;

    expect(await revealSigningSecret(owner)).toEqual({ secret: decryptSecret(application.signingSecretEncrypted), previousExpiresAt: null });
    await expect(revealSigningSecret(member)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(rotateSigningSecretFor(member)).rejects.toBeInstanceOf(ForbiddenError);
    const rotated = await rotateSigningSecretFor(owner);
    expect(await revealSigningSecret(owner)).toEqual({ secret: rotated.secret, previousExpiresAt: rotated.previousExpiresAt });
    const untouched = await db().application.findUniqueOrThrow({ where: { id: other.application.id } });
    expect(untouched.signingSecretEncrypted).toBe(other.application.signingSecretEncrypted);
    expect(untouched.previousSigningSecretEncrypted).toBeNull();
  });
});
