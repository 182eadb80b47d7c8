import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateKey, decryptSecret } from "@/lib/auth";
import { attachSource, chooseProviders, createConnectSession } from "@/lib/connect";
import { db } from "@/lib/db";
import { issueAuthorizationCodeDirectly } from "@/lib/ehr";
import { sendJob, QUEUE, stopSender } from "@/lib/queue";
import { beginAuthorization, completeAuthorization, ensureSandboxProviders } from "@/lib/sources";
import { createTestApplication } from "@/test/factories";
import { serveRouteFiles } from "@/test/route-server";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { startTsxProcess, stopProcesses } from "@/scripts/tsx-process";

// Two app instances and two workers, each its own process (`npm run worker` beside app instances started with
// CHARTKEY_WORKER=off), on one PostgreSQL: the test file's database.
const PROVIDER = "riverbend-health";
const PATIENT_KEY = "baseline-adult.primary";
const RATE_LIMIT = 12;
const SOURCES = 4;
const children: ChildProcess[] = [];
let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let origins: string[] = [];
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;

const PROCESS_ENV = { CHARTKEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), CHARTKEY_ALLOW_PRIVATE_WEBHOOKS: "on", CHARTKEY_WORKER: "off", LOG_LEVEL: "warn" };
const launch = async (script: string, ready: RegExp) => (await startTsxProcess(script, PROCESS_ENV, ready, children)).ready;

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  // The workers fetch sources from this sandbox health system.
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
  await ensureSandboxProviders();
  const seed = await createTestApplication();
  receiver = await startReceiver(decryptSecret(seed.application.signingSecretEncrypted));
  sealedSecret = seed.application.signingSecretEncrypted;
  // All four start at once: each loads the platform's modules, which is most of this file's time.
  [origins] = await Promise.all([
    Promise.all([0, 1].map(() => launch("test/run-api-server.ts", /serving (http:\/\/\S+)/))),
    Promise.all([0, 1].map(() => launch("scripts/worker.ts", /Chartkey worker running/))),
  ]);
}, 120_000);

afterAll(async () => {
  await stopProcesses(children);
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
  await stopSender();
  await receiver.close();
  await ehr.close();
});

let sealedSecret: string;

/** A continuous-sync application whose webhooks reach the receiver, with a source connected through Connect. */
async function connectedSource(): Promise<{ sourceId: string; subjectId: string; applicationId: string }> {
  const { application, sandboxKey } = await createTestApplication({ webhookUrl: `${receiver.origin}/scale-out` });
  await db().application.update({ where: { id: application.id }, data: { syncMode: "continuous", signingSecretEncrypted: sealedSecret } });
  const key = await authenticateKey(`Bearer ${sandboxKey}`);
  const session = await createConnectSession(key, { categories: ["labs", "conditions", "medications"] }, ehr.origin);
  await chooseProviders(session.id, "sandbox", [PROVIDER]);
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId: PROVIDER, redirectUri: `${ehr.origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: PATIENT_KEY });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(session.id, PROVIDER, completed.tokens);
  const source = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
  return { sourceId, subjectId: source.subjectId, applicationId: application.id };
}

describe("two app instances and two workers on one PostgreSQL", () => {
  it("keep one key's rate limit exact across both instances", async () => {
    const { sandboxKey } = await createTestApplication();
    // Twice the limit, alternating between the instances, all at once.
    const statuses = await Promise.all(
      Array.from({ length: 2 * RATE_LIMIT }, (_, index) => fetch(`${origins[index % 2]}/api/v1/app`, { headers: { Authorization: `Bearer ${sandboxKey}` } }).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(RATE_LIMIT);
  });

  it("run every import job once and deliver every event once between the two workers", async () => {
    const sources: Awaited<ReturnType<typeof connectedSource>>[] = [];
    sources.push(...(await Promise.all(Array.from({ length: SOURCES }, () => connectedSource()))));
    for (const { sourceId } of sources) await sendJob(QUEUE.sourceImport, { sourceId });

    const applicationIds = sources.map((source) => source.applicationId);
    const imports = () => db().sourceImport.findMany({ where: { sourceId: { in: sources.map((source) => source.sourceId) } } });
    await waitFor(async () => {
      const rows = await imports();
      return rows.length >= SOURCES && rows.every((row) => row.status !== "running") ? rows : null;
    }, "every import job to finish", 90_000);
    // An import's records.updated event follows its completion: wait for each application's, then for every delivery.
    await waitFor(async () => {
      const deliveries = await db().webhookDelivery.findMany({ where: { applicationId: { in: applicationIds } }, select: { applicationId: true, status: true, event: { select: { type: true } } } });
      const updated = new Set(deliveries.filter((delivery) => delivery.event.type === "records.updated").map((delivery) => delivery.applicationId));
      return updated.size === SOURCES && deliveries.every((delivery) => delivery.status === "succeeded") ? true : null;
    }, "every import's event delivered", 60_000);

    // Every import job ran exactly once: one completed import per source (a second run would be a second row).
    const rows = await imports();
    expect(rows).toHaveLength(SOURCES);
    for (const { sourceId, subjectId } of sources) {
      expect(rows.filter((row) => row.sourceId === sourceId).map((row) => row.status)).toEqual(["completed"]);
      const records = await db().record.count({ where: { subjectId } });
      expect(records).toBeGreaterThan(5);
      expect(await db().recordChange.count({ where: { subjectId } })).toBe(records);
    }
    // Both workers' deliveries add up: every event delivered, once, each with one logged attempt.
    const deliveries = await db().webhookDelivery.findMany({ where: { applicationId: { in: applicationIds } }, include: { attemptLog: true, event: true } });
    expect(deliveries.length).toBeGreaterThanOrEqual(SOURCES);
    for (const delivery of deliveries) expect(delivery.attemptLog).toHaveLength(1);
    const eventIds = deliveries.map((delivery) => delivery.eventId);
    const arrived = receiver.received.filter((item) => eventIds.includes(item.id)).map((item) => item.id);
    expect(arrived.sort()).toEqual([...eventIds].sort());
  }, 180_000);
});
