import { spawn } from "node:child_process";
import type PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { attachSource, chooseProviders, createConnectSession } from "@/lib/connect";
import { db } from "@/lib/db";
import { clearEhrFaults, injectEhrFault, issueAuthorizationCodeDirectly } from "@/lib/ehr";
import { startQueue } from "@/lib/jobs";
import { JOBS } from "@/scripts/platform-jobs";
import { QUEUE } from "@/lib/queue";
import { beginAuthorization, completeAuthorization, ensureSandboxProviders } from "@/lib/sources";
import { createTestApplication } from "@/test/factories";
import { serveRouteFiles } from "@/test/route-server";
import { sourceImportJob } from "./import-job";

const PROVIDER = "riverbend-health";
const PATIENT_KEY = "baseline-adult.primary";
let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let boss: PgBoss;
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
  await ensureSandboxProviders();
  boss = await startQueue(process.env.DATABASE_URL!, JOBS);
});

afterAll(async () => {
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
  clearEhrFaults();
  await boss.stop({ graceful: false, wait: true });
  await ehr.close();
});

async function connectedSource(): Promise<{ sourceId: string; subjectId: string }> {
  const { sandboxKey } = await createTestApplication();
  const key = await authenticateKey(`Bearer ${sandboxKey}`);
  const session = await createConnectSession(key, { categories: ["labs"] }, ehr.origin);
  await chooseProviders(session.id, "sandbox", [PROVIDER]);
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId: PROVIDER, redirectUri: `${ehr.origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: PATIENT_KEY });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(session.id, PROVIDER, completed.tokens);
  const source = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
  return { sourceId, subjectId: source.subjectId };
}

async function waitFor<T>(read: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a worker killed mid-import", () => {
  it("leaves nothing half-written, and the job's rerun completes with no duplicate and no lost record", async () => {
    const { sourceId, subjectId } = await connectedSource();
    // The health system stalls the import: every request waits out a long Retry-After.
    injectEhrFault(PROVIDER, PATIENT_KEY, { status: 503, count: 1000, retryAfterSeconds: 30 });
    await boss.send(QUEUE.sourceImport, { sourceId });

    // One process (node with tsx's loader, not npx), so the kill reaches the worker itself.
    const worker = spawn(process.execPath, ["--import", "tsx", "test/run-worker.ts"], { env: { ...process.env }, stdio: "ignore" });
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    await waitFor(() => db().sourceImport.findFirst({ where: { sourceId, status: "running" } }), 60_000);
    worker.kill("SIGKILL");
    await exited;
    expect(await db().record.count({ where: { subjectId } })).toBe(0);

    // pg-boss hands the expired job to a worker again; that worker runs the same handler.
    clearEhrFaults();
    await sourceImportJob.handler({ id: "redelivered", name: QUEUE.sourceImport, data: { sourceId }, retryCount: 1, retryLimit: 5 } as PgBoss.JobWithMetadata<{ sourceId: string }>);

    // The same health system imported into another subject without a crash: the reference.
    const reference = await connectedSource();
    await sourceImportJob.handler({ id: "reference", name: QUEUE.sourceImport, data: { sourceId: reference.sourceId }, retryCount: 0, retryLimit: 5 } as PgBoss.JobWithMetadata<{ sourceId: string }>);
    const expected = await db().record.count({ where: { subjectId: reference.subjectId, deletedAt: null } });
    expect(expected).toBeGreaterThan(10);
    expect(await db().record.count({ where: { subjectId, deletedAt: null } })).toBe(expected);
    expect(await db().recordChange.count({ where: { subjectId } })).toBe(expected);
    const imports = await db().sourceImport.findMany({ where: { sourceId }, orderBy: { startedAt: "asc" } });
    expect(imports.map((row) => [row.status, row.error])).toEqual([["failed", "interrupted"], ["completed", null]]);
    expect(await db().source.findUniqueOrThrow({ where: { id: sourceId } })).toMatchObject({ syncStatus: "synced" });
  }, 120_000);
});
