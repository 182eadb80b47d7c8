import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { freePort } from "@/lib/db";
import { devSandboxKey, platformDatabaseUrl } from "@/test/e2e-platform";
import { send, type TestResponse } from "@/test/raw-http";

// The web server serves /api/v1 and /demo/v1 straight from their route files (lib/server/direct-api.ts). A second
// platform on the same database, started with CHARTKEY_API_DIRECT=off, sends the same requests through Next.js: both
// must answer every one of them alike.

// Headers that differ between any two answers (time, ids, framing, the limit's remaining count) or that only
// Next.js's page router varies on.
const PER_ANSWER = new Set(["date", "request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "ratelimit"]);
const NEXT_ROUTER_VARY = new Set(["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch"]);

/** An answer with what legitimately differs between two answers and two servers taken out. */
function comparable(answer: TestResponse, port: number) {
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(answer.headers)) {
    const value = Array.isArray(raw) ? raw.join(", ") : (raw ?? "");
    if (PER_ANSWER.has(name)) continue;
    if (name === "vary") {
      const kept = value.split(",").map((token) => token.trim()).filter((token) => !NEXT_ROUTER_VARY.has(token.toLowerCase()));
      if (kept.length > 0) headers[name] = kept.join(", ");
      continue;
    }
    headers[name] = value;
  }
  const body = answer.body
    .replaceAll(`localhost:${port}`, "localhost:PORT")
    .replace(/req_[0-9A-Za-z]{24}/g, "req_").replace(/"(generatedAt|time|timestamp)":"[^"]*"/g, '"$1":""');
  return { status: answer.status, headers, body };
}

let next: { child: ChildProcess; port: number } | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: platformDatabaseUrl(),
      CHARTKEY_DATA_DIR: process.env.E2E_DATA_DIR,
      CHARTKEY_API_DIRECT: "off",
      CHARTKEY_WORKER: "off",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Chartkey on http://localhost:${port}`)) resolve();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code} before serving:\n${output}`)));
  });
  next = { child, port };
});

test.afterAll(async () => {
  if (!next || next.child.exitCode !== null) return;
  const exited = new Promise((resolve) => next!.child.once("exit", resolve));
  next.child.kill("SIGTERM");
  await exited;
});

test("the direct path answers every request exactly as Next.js does", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const directPort = Number(new URL(baseURL!).port);
  const key = { Authorization: `Bearer ${devSandboxKey()}` };
  const json = { ...key, "Content-Type": "application/json" };
  const cases: [string, string, Record<string, string>?, string?][] = [
    ["GET", "/api/v1/health"],
    ["HEAD", "/api/v1/health"],
    ["OPTIONS", "/api/v1/app"],
    ["OPTIONS", "/api/v1/no/such/path"],
    ["GET", "/api/v1/app"],
    ["GET", "/api/v1/app", key],
    ["GET", "/api/v1/%61pp", key],
    ["POST", "/api/v1/app", key],
    ["DELETE", "/api/v1/users", key],
    ["GET", "/api/v1", key],
    ["GET", "/api/v1/no/such/path", key],
    ["GET", "/api/v1/users?limit=2", key],
    ["GET", "/api/v1/users?limit=0", key],
    ["GET", "/api/v1/users/u_nobody/records", key],
    ["GET", "/api/v1/users/u_nobody/records/labs,vitals", key],
    ["GET", "/api/v1/users/a%2Fb/records/labs/changes", key],
    ["GET", "/api/v1/consents/cr_nobody", key],
    ["GET", "/api/v1/openapi.json", { "Accept-Encoding": "gzip" }],
    ["POST", "/api/v1/connect/sessions", json, "{not json"],
    ["POST", "/api/v1/connect/sessions", json, JSON.stringify({ padding: "x".repeat(2_000_000) })],
    ["POST", "/api/v1/connect/sessions", { ...json, "Idempotency-Key": "not a key!" }, "{}"],
    ["GET", "/demo/v1"],
    ["GET", "/demo/v1/fhir/metadata"],
    ["GET", "/demo/v1/fhir/Patient?patient=nobody"],
    ["GET", "/demo/v1/scenarios"],
    ["OPTIONS", "/demo/v1/health"],
    ["GET", "/demo/v1/nothing/here"],
  ];
  for (const [method, path, headers, body] of cases) {
    const viaNext = await send(next!.port, { method, path, headers: { Connection: "close", ...headers }, body });
    const direct = await send(directPort, { method, path, headers: { Connection: "close", ...headers }, body });
    expect(comparable(direct, directPort), `${method} ${path}`).toEqual(comparable(viaNext, next!.port));
  }
});
