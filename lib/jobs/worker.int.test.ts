import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestApplication } from "@/test/factories";
import { runLifecycle } from "./lifecycle";
import { JOBS, LIFECYCLE_CYCLES, LIFECYCLE_JOB } from "@/scripts/platform-jobs";
import { sendJob, stopSender } from "@/lib/queue";
import { startQueue } from "./queue";
import { defineJob } from "./registry";
import { startWorker } from "./worker";

const DAY = 24 * 60 * 60 * 1000;

async function seedExpirable(applicationId: string, now: number, tag: string) {
  const log = (id: string, age: number) => ({
    requestId: id,
    method: "GET",
    route: "GET /app",
    status: 200,
    latencyMs: 1,
    applicationId,
    createdAt: new Date(now - age),
  });
  await db().requestLog.createMany({ data: [log(`req_old_${tag}`, 31 * DAY), log(`req_new_${tag}`, 29 * DAY)] });
  const idem = (id: string, key: string, expiresAt: number) => ({
    id,
    applicationId,
    environment: "sandbox" as const,
    key,
    requestHash: "h",
    expiresAt: new Date(expiresAt),
  });
  await db().idempotencyRecord.createMany({ data: [idem(`idem_old_${tag}`, `a${tag}`, now - 1000), idem(`idem_new_${tag}`, `b${tag}`, now + DAY)] });
  await db().rateLimit.createMany({
    data: [
      { key: `key:old_${tag}`, points: 3, expire: BigInt(now - 1000) },
      { key: `key:new_${tag}`, points: 3, expire: BigInt(now + 60_000) },
    ],
  });
}

describe("lifecycle cycles", () => {
  it("prune request logs older than 30 days, expired idempotency records and spent rate-limit windows, and nothing else", async () => {
    const { application } = await createTestApplication();
    const now = Date.now();
    await seedExpirable(application.id, now, "cycles");
    const outcomes = await runLifecycle(LIFECYCLE_CYCLES, new Date(now));
    expect(outcomes).toEqual([
      { name: "expire-consent-receipts", affected: 0 },
      { name: "purge-ended-subjects", affected: 0 },
      { name: "expire-connect-sessions", affected: 0 },
      { name: "purge-synthetic-patients", affected: 0 },
      { name: "prune-request-logs", affected: 1 },
      { name: "prune-idempotency-records", affected: 1 },
      { name: "prune-rate-limit-windows", affected: 1 },
      { name: "prune-tefca-sessions", affected: 0 },
      { name: "conformance-runs", affected: 0 },
      { name: "fhir-export-expiry", affected: 0 },
    ]);
    expect((await db().requestLog.findMany()).map((r) => r.requestId)).toEqual(["req_new_cycles"]);
    expect((await db().idempotencyRecord.findMany()).map((r) => r.id)).toEqual(["idem_new_cycles"]);
    expect((await db().rateLimit.findMany()).map((r) => r.key)).toEqual(["key:new_cycles"]);
  });
});

async function waitFor(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

async function queueRow(queue: string) {
  const rows = await db().$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT policy, retry_limit, retry_delay, retry_backoff, expire_seconds FROM pgboss.queue WHERE name = $1`,
    queue,
  );
  return rows[0];
}

describe("the pg-boss worker", () => {
  it("creates a queue for each registered job with its policy, works its jobs, and retries them as the policy says, telling each attempt which it is", async () => {
    const url = process.env.DATABASE_URL as string;
    const attempts: [number, number, number][] = [];
    // A registry holding only a job made for this test: nothing in the queue or the worker names it. (The
    // lifecycle job stays out: offering it here would use up the current window of the next test.)
    const flaky = defineJob<{ n: number }>({
      queue: "registry-probe",
      policy: { policy: "standard", retryLimit: 1, retryDelay: 0, retryBackoff: false, expireInSeconds: 60 },
      handler: async (job) => {
        attempts.push([job.data.n, job.retryCount, job.retryLimit]);
        if (attempts.length === 1) throw new Error("first attempt fails");
      },
    });
    const worker = await startWorker(url, [flaky]);
    try {
      expect(await queueRow("registry-probe")).toEqual({
        policy: "standard",
        retry_limit: 1,
        retry_delay: 0,
        retry_backoff: false,
        expire_seconds: 60,
      });

      const id = await worker.boss.send("registry-probe", { n: 7 });
      await waitFor(async () => (await worker.boss.getJobById("registry-probe", id as string))?.state === "completed", "the retried job completing");
      expect(attempts).toEqual([
        [7, 0, 1],
        [7, 1, 1],
      ]);
    } finally {
      await worker.stop();
    }

    // A policy edited in the registry reaches a queue that already exists.
    const stricter = defineJob({ ...flaky, policy: { ...flaky.policy, retryLimit: 4, expireInSeconds: 30 } });
    const restarted = await startWorker(url, [stricter]);
    try {
      expect(await queueRow("registry-probe")).toMatchObject({ retry_limit: 4, expire_seconds: 30 });
    } finally {
      await restarted.stop();
    }
  }, 40_000);

  it("on a database server it has just started, reruns at once the jobs a killed worker left active", async () => {
    const url = process.env.DATABASE_URL as string;
    const ran: number[] = [];
    const slow = defineJob<{ n: number }>({
      queue: "interrupted-probe",
      // Left alone, the dead worker's job would wait out the whole hour before running again.
      policy: { policy: "standard", retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 3600 },
      handler: async (job) => {
        ran.push(job.data.n);
      },
    });
    // A worker that took the job and died: pg-boss marks it active and nobody will finish it.
    const dead = await startQueue(url, [slow]);
    const id = (await dead.send("interrupted-probe", { n: 1 })) as string;
    expect((await dead.fetch("interrupted-probe")).map((job) => job.id)).toEqual([id]);
    expect((await dead.getJobById("interrupted-probe", id))?.state).toBe("active");
    await dead.stop({ graceful: false, wait: true });

    const worker = await startWorker(url, [slow], { serverJustStarted: true });
    try {
      await waitFor(async () => (await worker.boss.getJobById("interrupted-probe", id))?.state === "completed", "the interrupted job completing");
      expect(ran).toEqual([1]);
      expect((await worker.boss.getJobById("interrupted-probe", id))?.retryCount).toBe(1);
    } finally {
      await worker.stop();
    }
  }, 40_000);

  it("runs a batched queue's jobs in parallel across pollers, and fails a failing job alone", async () => {
    const url = process.env.DATABASE_URL as string;
    let running = 0;
    let peak = 0;
    const batched = defineJob<{ n: number }>({
      queue: "batch-probe",
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      pollers: 2,
      batchSize: 5,
      pollingIntervalSeconds: 0.5,
      handler: async (job) => {
        running++;
        peak = Math.max(peak, running);
        await sleep(300);
        running--;
        if (job.data.n === 3) throw new Error("job 3 fails");
      },
    });
    const worker = await startWorker(url, [batched]);
    try {
      const ids: string[] = [];
      for (let n = 0; n < 10; n++) ids.push((await worker.boss.send("batch-probe", { n })) as string);
      const states = async () => Promise.all(ids.map(async (id) => (await worker.boss.getJobById("batch-probe", id))?.state));
      await waitFor(async () => (await states()).every((state) => state === "completed" || state === "failed"), "every batched job settling");
      expect((await states()).map((state, n) => [n, state])).toEqual(ids.map((_, n) => [n, n === 3 ? "failed" : "completed"]));
      expect(peak).toBeGreaterThan(2);
    } finally {
      await worker.stop();
    }
  }, 40_000);

  it("runs a job sent from another process at once, not at its poller's next poll", async () => {
    const url = process.env.DATABASE_URL as string;
    let runs = 0;
    const idle = defineJob({
      queue: "wakeup-probe",
      policy: { policy: "standard", retryLimit: 0, expireInSeconds: 60 },
      // Far longer than the test may wait: only the wake-up can make the job run in time.
      pollingIntervalSeconds: 120,
      handler: async () => {
        runs += 1;
      },
    });
    const worker = await startWorker(url, [idle]);
    try {
      await waitFor(async () => worker.wakeups.live, "the worker listening for announced jobs");
      // The poller's first fetch (at start) found nothing; it now sleeps out its 120 s interval.
      await sleep(500);
      // The app's sender (its own pg-boss client and connections, as in another process) announces what it sent.
      await sendJob("wakeup-probe", {});
      // Well within the poll interval: on a loaded machine the wake-up still takes a moment.
      await waitFor(async () => runs === 1, "the sent job running", 30_000);
      expect(runs).toBe(1);
    } finally {
      await worker.stop();
      await stopSender();
    }
  }, 60_000);

  it("runs the lifecycle job, and two workers offer only one job per 30-second window", async () => {
    const url = process.env.DATABASE_URL as string;
    const { application } = await createTestApplication();
    await seedExpirable(application.id, Date.now(), "worker");

    const windowOf = (time: number) => Math.floor(time / 30_000);
    const startedWindow = windowOf(Date.now());
    const first = await startWorker(url, JOBS);
    const second = await startWorker(url, JOBS);
    try {
      const deadline = Date.now() + 20_000;
      while ((await db().idempotencyRecord.count({ where: { id: "idem_old_worker" } })) > 0) {
        if (Date.now() > deadline) throw new Error("the lifecycle job did not run within 20 s");
        await sleep(200);
      }
      const jobs = await db().$queryRawUnsafe<{ count: bigint }[]>(
        `SELECT count(*) AS count FROM pgboss.job WHERE name = $1`,
        LIFECYCLE_JOB.queue,
      );
      // One job per window however many workers offer it (a test that straddles a window edge sees two).
      const windows = windowOf(Date.now()) - startedWindow + 1;
      expect(Number(jobs[0]?.count)).toBeGreaterThanOrEqual(1);
      expect(Number(jobs[0]?.count)).toBeLessThanOrEqual(windows);
      expect(await db().requestLog.count({ where: { requestId: "req_old_worker" } })).toBe(0);
      expect(await queueRow(LIFECYCLE_JOB.queue)).toMatchObject({ policy: "singleton", retry_limit: 0, expire_seconds: 120 });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 40_000);
});

