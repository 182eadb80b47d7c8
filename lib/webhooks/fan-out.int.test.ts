import dns from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { NOT_PUBLIC } from "@/lib/outbound";
import { QUEUE, sendJobs, stopSender } from "@/lib/queue";
import { createTestApplication } from "@/test/factories";
import { waitFor } from "@/test/webhook-receiver";
import { deliverWebhook, webhookDeliveryJob } from "./deliver";
import { ENDPOINT_CONNECTIONS } from "./outbound";

/**
 * A receiver that counts its TCP connections and the requests it holds at once; `hang` makes it hold every
 * request without answering (a receiver that is up but stuck) until the test ends.
 */
async function countingReceiver(options: { hang?: boolean } = {}) {
  const stats = { connections: 0, requests: 0, open: 0, maxOpen: 0 };
  const server = http.createServer((request, response) => {
    stats.requests++;
    stats.open++;
    stats.maxOpen = Math.max(stats.maxOpen, stats.open);
    response.on("close", () => stats.open--);
    request.resume();
    if (!options.hang) request.on("end", () => response.writeHead(204).end());
  });
  server.on("connection", () => stats.connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    stats,
    server,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
const receivers: Awaited<ReturnType<typeof countingReceiver>>[] = [];
async function receiver(options: { hang?: boolean } = {}) {
  const started = await countingReceiver(options);
  receivers.push(started);
  return started;
}

/**
 * A backlog written in bulk, as a busy platform has it: events, their deliveries and (unless told not to) their
 * jobs, on a queue a started worker created; `urls` taken in turn.
 */
async function backlog(urls: string[], count: number, options: { jobs?: boolean } = {}): Promise<{ deliveryId: string; url: string }[]> {
  const applications = await Promise.all(urls.map((url) => createTestApplication({ webhookUrl: url }).then((created) => created.application)));
  const rows = Array.from({ length: count }, (_, index) => ({ application: applications[index % urls.length]!, url: urls[index % urls.length]!, eventId: newId("evt_"), deliveryId: newId("whd_") }));
  await db().event.createMany({ data: rows.map((row) => ({ id: row.eventId, applicationId: row.application.id, environment: "sandbox" as const, type: "records.updated", data: { subject: "u_fanout" } })) });
  await db().webhookDelivery.createMany({ data: rows.map((row) => ({ id: row.deliveryId, eventId: row.eventId, applicationId: row.application.id, url: row.url, nextAttemptAt: new Date() })) });
  if (options.jobs !== false) {
    await sendJobs(
      QUEUE.webhookDelivery,
      rows.map((row) => ({ data: { deliveryId: row.deliveryId, attempt: 1 }, singletonKey: row.deliveryId })),
    );
  }
  return rows.map(({ deliveryId, url }) => ({ deliveryId, url }));
}

const succeeded = (ids: string[]) => db().webhookDelivery.count({ where: { id: { in: ids }, status: "succeeded" } });

let worker: RunningWorker | undefined;

beforeAll(() => {
  // The receivers listen on loopback, which only a deployment that opts in lets sandbox webhooks reach.
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
});

afterEach(async () => {
  vi.restoreAllMocks();
  // Hung requests end now: their attempts fail at once and the stopping worker's drain is short.
  for (const started of receivers.splice(0)) await started.close();
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await stopSender();
});

describe("webhook fan-out", () => {
  it("a receiver that holds every request does not hold up the others, and gets no more requests than its connection pool", async () => {
    const stuck = await receiver({ hang: true });
    const fast = await receiver();
    // Interleaved, so every fetched batch carries both; more stuck deliveries than the endpoint's places, and than
    // the pollers fetch at once.
    worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]); // creates the queue
    const deliveries = await backlog([stuck.url, fast.url], 400);
    const fastIds = deliveries.filter((delivery) => delivery.url === fast.url).map((delivery) => delivery.deliveryId);
    const stuckIds = deliveries.filter((delivery) => delivery.url === stuck.url).map((delivery) => delivery.deliveryId);

    await waitFor(async () => (await succeeded(fastIds)) === fastIds.length, "every delivery to the answering receiver", 30_000);
    // Every one of those succeeded while the stuck receiver still held every request it got: none of its attempts
    // has ended (an attempt ends only at the 10-second timeout), so none waited for it.
    expect(await db().webhookDeliveryAttempt.count({ where: { deliveryId: { in: stuckIds } } })).toBe(0);
    expect(stuck.stats.requests).toBe(stuck.stats.open);
    expect(stuck.stats.maxOpen).toBeLessThanOrEqual(ENDPOINT_CONNECTIONS);
    expect(stuck.stats.requests).toBeGreaterThan(0);
    expect(fast.stats.requests).toBe(fastIds.length);
  }, 60_000);

  it("a stuck receiver's backlog beyond its places is given back unmade, unlogged, and re-queued", async () => {
    const stuck = await receiver({ hang: true });
    worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]); // creates the queue
    const deliveries = await backlog([stuck.url], ENDPOINT_CONNECTIONS + 100);
    const ids = deliveries.map((delivery) => delivery.deliveryId);
    // Past the 5-second wait for a place, the attempts that got none are released (pending, not attempted, due
    // later) and each gets its job again, for when it is due.
    const queued = async (keys: string[]) =>
      new Set(
        (
          await db().$queryRaw<{ key: string }[]>`
            SELECT singleton_key AS key FROM pgboss.job WHERE name = ${QUEUE.webhookDelivery} AND state = 'created' AND start_after > now() AND singleton_key = ANY(${keys})`
        ).map((job) => job.key),
      ).size;
    const given = await waitFor(async () => {
      const rows = await db().webhookDelivery.findMany({ where: { id: { in: ids }, attempts: 0, nextAttemptAt: { gt: new Date() } } });
      return rows.length >= 100 && (await queued(rows.map((row) => row.id))) === rows.length ? rows : null;
    }, "the attempts without a place given back and re-queued", 20_000);
    expect(given.every((row) => row.status === "pending" && row.lastAttemptAt === null)).toBe(true);
    expect(await db().webhookDeliveryAttempt.count({ where: { deliveryId: { in: given.map((row) => row.id) } } })).toBe(0);
    expect(stuck.stats.maxOpen).toBeLessThanOrEqual(ENDPOINT_CONNECTIONS);
  }, 60_000);

  it("reuses keep-alive connections to a receiver: far fewer TCP connections than deliveries", async () => {
    const target = await receiver();
    worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]); // creates the queue
    const deliveries = await backlog([target.url], 400);
    const ids = deliveries.map((delivery) => delivery.deliveryId);
    await waitFor(async () => (await succeeded(ids)) === ids.length, "every delivery", 30_000);
    expect(target.stats.requests).toBe(400);
    expect(target.stats.connections).toBeGreaterThan(0);
    expect(target.stats.connections).toBeLessThanOrEqual(ENDPOINT_CONNECTIONS);
  }, 60_000);

  it("sends once more on a new connection when a kept-alive one turns out closed, within the same attempt", async () => {
    // A receiver that drops every connection at its second request, as one closing idle connections does when the
    // close crosses the next request on the wire.
    const target = await receiver();
    target.server.removeAllListeners("request");
    const served = new WeakMap<object, number>();
    target.server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      if (count > 1) return request.socket.destroy();
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    });
    const [first, second] = await backlog([target.url], 2, { jobs: false });
    expect(await deliverWebhook({ deliveryId: first!.deliveryId, attempt: 1 })).toBe("succeeded");
    expect(await deliverWebhook({ deliveryId: second!.deliveryId, attempt: 1 })).toBe("succeeded");
    expect(target.stats.connections).toBe(2);
    expect(await db().webhookDeliveryAttempt.findMany({ where: { deliveryId: second!.deliveryId }, select: { attempt: true, responseCode: true } })).toEqual([{ attempt: 1, responseCode: 204 }]);
  });

  it("checks the address on every new connection: a name that resolves to a refused address later is refused then", async () => {
    const target = await receiver();
    const host = "hooks.rebinding.example";
    let answer = "127.0.0.1"; // loopback: allowed for the sandbox where the deployment opts in
    const lookups: string[] = [];
    const lookup = dns.lookup;
    vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
      if (hostname !== host) return (lookup as (...args: unknown[]) => void)(hostname, options, callback);
      lookups.push(answer);
      return callback(null, [{ address: answer, family: 4 }]);
    }) as typeof dns.lookup);
    // No worker: the test makes each attempt itself, in turn.
    const [first, second, third] = await backlog(Array(3).fill(`http://${host}:${target.port}/hooks`), 3, { jobs: false });

    expect(await deliverWebhook({ deliveryId: first!.deliveryId, attempt: 1 })).toBe("succeeded");
    // Over the open keep-alive connection the next delivery needs no lookup.
    expect(await deliverWebhook({ deliveryId: second!.deliveryId, attempt: 1 })).toBe("succeeded");
    expect(lookups).toEqual(["127.0.0.1"]);
    expect(target.stats.connections).toBe(1);

    // The name now points at the cloud metadata address, and the receiver closes its idle connection: the next
    // delivery connects anew, its lookup is checked again, and it is refused before any connection is made.
    answer = "169.254.169.254";
    target.server.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await deliverWebhook({ deliveryId: third!.deliveryId, attempt: 1 })).toBe("retrying");
    expect(lookups).toEqual(["127.0.0.1", "169.254.169.254"]);
    expect(await db().webhookDeliveryAttempt.findFirst({ where: { deliveryId: third!.deliveryId } })).toMatchObject({ responseCode: null, error: `refused: ${NOT_PUBLIC}` });
    expect(target.stats.connections).toBe(1);
    expect(target.stats.requests).toBe(2);
  });
});
