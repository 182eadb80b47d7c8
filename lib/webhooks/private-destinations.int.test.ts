import dns from "node:dns";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { signUp } from "@/lib/accounts";
import { createApplicationFor, setWebhookUrl } from "@/lib/applications";
import { db } from "@/lib/db";
import { stopSender } from "@/lib/queue";
import { deliverWebhook } from "./deliver";
import { getDelivery } from "./delivery-log";
import { NOT_PUBLIC } from "@/lib/outbound";
import { postWebhook } from "./outbound";
import { deliveryPolicy } from "./policy";
import { sendTestEvent } from "./resend";

// An internal service on the platform's host: it counts every TCP connection made to it and answers a secret.
const SECRET_ANSWER = "internal-service: DATABASE_PASSWORD=hunter2";
let connections = 0;
let internal: http.Server;
let port: number;

beforeAll(async () => {
  internal = http.createServer((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end(SECRET_ANSWER));
  internal.on("connection", () => connections++);
  internal.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
  port = (internal.address() as AddressInfo).port;
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await stopSender();
  internal.closeAllConnections();
  await new Promise((resolve) => internal.close(resolve));
});

/** What a stranger gets in minutes: an account, its sandbox application, and the dashboard's webhook tools. */
async function freshSignUp() {
  const developer = await signUp({ email: `probe-${Math.random().toString(36).slice(2)}@example.test`, name: "Probe", password: "correct horse battery" }, "203.0.113.80");
  return createApplicationFor(developer.id, { name: "Probe" });
}

/** "Send test event", then its first attempt as the worker makes it, and the delivery page's view of it. */
async function sendAndDeliver(applicationId: string) {
  const sent = await sendTestEvent(applicationId, "sandbox");
  if (!sent.ok) throw new Error("no webhook URL");
  await deliverWebhook({ deliveryId: sent.deliveryId, attempt: 1 }, { ...deliveryPolicy(), timeoutMs: 2000 });
  return (await getDelivery(applicationId, sent.deliveryId))!;
}

const spellings = () => [
  `http://127.0.0.1:${port}/`,
  `http://localhost:${port}/`,
  `http://localhost.:${port}/`,
  `https://localhost.:${port}/`,
  `http://127.1:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://017700000001:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::1]:${port}/`,
];

describe("a fresh sign-up and the platform host's loopback (issue 18, item 2)", () => {
  it("cannot save any spelling of a loopback URL", async () => {
    const access = await freshSignUp();
    for (const url of spellings()) {
      await expect(setWebhookUrl(access, { webhookUrl: url }), url).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining(NOT_PUBLIC) });
    }
    expect((await db().application.findUniqueOrThrow({ where: { id: access.application.id } })).webhookUrl).toBeNull();
  });

  it("never connects to loopback even with such a URL stored, and reads nothing back", async () => {
    const access = await freshSignUp();
    const before = connections;
    for (const url of spellings()) {
      // Stored past the save check, as a URL saved before this check existed would be.
      await db().application.update({ where: { id: access.application.id }, data: { webhookUrl: url } });
      const delivery = await sendAndDeliver(access.application.id);
      expect(delivery.attempts, url).toEqual([expect.objectContaining({ responseCode: null, responseExcerpt: null, error: `refused: ${NOT_PUBLIC}` })]);
    }
    expect(connections - before).toBe(0);
  });

  it("a name that resolved to a public address when saved and to loopback when delivered is refused at connect time", async () => {
    const access = await freshSignUp();
    vi.spyOn(dns.promises, "lookup").mockResolvedValue([{ address: "93.184.215.14", family: 4 }] as never);
    await setWebhookUrl(access, { webhookUrl: `http://rebind.example:${port}/` });
    const lookup = dns.lookup;
    vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
      if (hostname === "rebind.example") return callback(null, [{ address: "127.0.0.1", family: 4 }]);
      return (lookup as (...args: unknown[]) => void)(hostname, options, callback);
    }) as typeof dns.lookup);
    const before = connections;
    const delivery = await sendAndDeliver(access.application.id);
    expect(delivery.attempts).toEqual([expect.objectContaining({ responseCode: null, responseExcerpt: null, error: `refused: ${NOT_PUBLIC}` })]);
    expect(connections - before).toBe(0);
  });

  it("where the deployment opts in, the sandbox delivers to a local receiver and only the application's members see its answer", async () => {
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    const access = await freshSignUp();
    await setWebhookUrl(access, { webhookUrl: `http://localhost:${port}/hooks` });
    const before = connections;
    const delivery = await sendAndDeliver(access.application.id);
    expect(connections - before).toBeGreaterThan(0);
    expect(delivery.attempts).toEqual([expect.objectContaining({ responseCode: 200, responseExcerpt: SECRET_ANSWER, error: null })]);
    const stranger = await freshSignUp();
    expect(await getDelivery(stranger.application.id, delivery.id)).toBeNull();
  });

  it("a name that does not resolve, a closed port, a port that drops the connection, a TLS mismatch and a silent port each say what happened", async () => {
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dropping = net.createServer((socket) => socket.destroy());
    const silent = net.createServer(() => undefined);
    for (const server of [dropping, silent]) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const portOf = (server: net.Server) => (server.address() as AddressInfo).port;
    try {
      const outcomes = await Promise.all(
        [
          "http://chartkey-no-such-host.invalid/",
          `http://127.0.0.1:${closedPort}/`,
          `http://127.0.0.1:${portOf(dropping)}/`,
          `https://127.0.0.1:${port}/`,
          `http://127.0.0.1:${portOf(silent)}/`,
        ].map((url) => postWebhook(url, "sandbox", "{}", {}, 1500)),
      );
      for (const outcome of outcomes) expect(outcome).toMatchObject({ status: null, excerpt: null });
      expect(outcomes.map((outcome) => outcome.error)).toEqual([
        "could not deliver: the endpoint's host name does not resolve (DNS)",
        "could not deliver: the connection was refused (nothing listens at that address and port)",
        "could not deliver: the endpoint closed the connection before answering",
        expect.stringMatching(/^could not deliver: the TLS handshake failed \(\w+\)$/),
        "could not deliver: no answer within 1.5 s (timeout)",
      ]);
    } finally {
      for (const server of [dropping, silent]) {
        server.close();
      }
    }
  });
});
