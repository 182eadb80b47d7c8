import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type Received = { path: string; id: string; type: string; payload: Record<string, unknown>; headers: http.IncomingHttpHeaders; at: number; body: string };

/**
 * A webhook receiver on port 0 that verifies every request with the public `standardwebhooks` library, as a
 * developer's backend would. `respond` decides the answer per request: a status, `"hang"` (never answer) or a
 * delay before answering 200. Verified deliveries land in `received`; requests that fail verification in
 * `rejected`.
 */
export async function startReceiver(secret: string) {
  const verifier = new Webhook(secret);
  const received: Received[] = [];
  const rejected: string[] = [];
  let arrived = 0;
  let respond: (path: string, count: number) => number | "hang" | { delayMs: number } | { redirect: string } = () => 200;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      arrived++;
      const body = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      const answer = respond(path, arrived);
      if (answer === "hang") return;
      const reply = () => {
        try {
          const payload = verifier.verify(body, request.headers as Record<string, string>) as Record<string, unknown>;
          received.push({ path, id: String(payload.id), type: String(payload.type), payload, headers: request.headers, at: Date.now(), body });
        } catch (error) {
          rejected.push((error as Error).message);
          response.writeHead(400).end("bad signature");
          return;
        }
        if (typeof answer === "object" && "redirect" in answer) response.writeHead(302, { location: answer.redirect }).end("moved");
        else response.writeHead(typeof answer === "number" ? answer : 200, { "content-type": "text/plain" }).end(typeof answer === "number" && answer >= 400 ? "receiver says no ".repeat(60) : "ok");
      };
      if (typeof answer === "object" && "delayMs" in answer) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    rejected,
    arrivals: () => arrived,
    setResponder(next: typeof respond) {
      respond = next;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function waitFor<T>(
  read: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
