// `npm start`: the whole platform on one machine. Starts the embedded PostgreSQL (unless DATABASE_URL is set),
// applies migrations, seeds the development account on first run, builds when the build is stale, then serves
// the platform's HTTP server (lib/server, with Next.js inside it) on PORT with the job worker in this process.
// Ctrl-C stops the server, the worker and the database.
// `npm run dev` (scripts/dev.ts) runs this same file under `tsx watch` with CHARTKEY_DEV=1: Next.js in development
// mode (no build, pages compiled on demand with hot reload) and this process restarted when a server-side file
// changes, on the database dev.ts holds.
import { spawn } from "node:child_process";
import type { Server } from "node:http";
import path from "node:path";
import { buildIsFresh, loadLocalEnv } from "@/lib/config";

const development = process.env.CHARTKEY_DEV === "1";
await loadLocalEnv();
// Next.js and React pick their mode from NODE_ENV when they load, as `next start` and `next dev` arrange for
// themselves.
Object.assign(process.env, { NODE_ENV: development ? "development" : process.env.NODE_ENV || "production" });
// Traces over OTLP only when a collector is named (docs/operations.md, Traces): otherwise the SDK is never loaded. It
// starts before anything loads pg, so its statements are instrumented.
const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? (await import("@/lib/tracing/start-tracing")).startTracing() : undefined;
const { seedDevelopment } = await import("@/lib/applications");
const { closeDb, openPlatformDatabase, platformDataDir } = await import("@/lib/db");
const { startWorker } = await import("@/lib/jobs");
const { JOBS } = await import("./platform-jobs");
const { trustedProxyHops } = await import("@/lib/config");
const { closePlatformServer, createPlatformServer, directApiHandler, prepareNextApp } = await import("@/lib/server");
const { flushRequestLog } = await import("@/lib/http");
const { describeFailure, flushLog } = await import("@/lib/log");
const { startConfiguredMetricsServer } = await import("@/lib/metrics");

const port = Number(process.env.PORT ?? 3000);
const nextBin = path.resolve("node_modules/.bin/next");

// Filled in as they start, so a shutdown during the start stops only what is running.
const running: {
  database?: Awaited<ReturnType<typeof openPlatformDatabase>>;
  server?: Server;
  next?: Awaited<ReturnType<typeof prepareNextApp>>;
  worker?: Awaited<ReturnType<typeof startWorker>>;
  metrics?: Server;
} = {};
let stopping: Promise<never> | undefined;

// Ctrl-C reaches every process of the group (and tsx relays it again), so shutdown runs once and later calls wait.
function shutdown(code: number): Promise<never> {
  stopping ??= (async () => {
    const { database, server, next, worker, metrics } = running;
    metrics?.close();
    // Requests in flight finish before Next.js, the worker and the database they use go away.
    if (server?.listening) await closePlatformServer(server);
    await next?.close().catch((error: unknown) => console.error(`next close: ${(error as Error).message}`));
    await worker?.stop().catch((error: unknown) => console.error(`worker stop: ${(error as Error).message}`));
    // The last half second of keyed requests is still queued for the request log.
    await flushRequestLog();
    await closeDb();
    await database?.stop().catch((error: unknown) => console.error(`database stop: ${(error as Error).message}`));
    await tracing?.shutdown().catch((error: unknown) => console.error(`tracing shutdown: ${(error as Error).message}`));
    console.log("Chartkey stopped.");
    await flushLog();
    process.exit(code);
  })();
  return stopping;
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  const database = await openPlatformDatabase();
  running.database = database;
  // Under `npm run dev` the database is dev.ts's, which said which it is.
  if (!development) console.log(database.origin === "external" ? "Database: DATABASE_URL" : `Database: embedded PostgreSQL in ${platformDataDir()}`);
  if (database.applied.length > 0) console.log(`Applied ${database.applied.length} migration(s).`);

  const seed = await seedDevelopment();
  if (seed) {
    console.log(`\nDevelopment account created (shown once; the password is stored hashed):`);
    console.log(`  dashboard sign-in: ${seed.email} / ${seed.password}`);
    console.log(`CK_SANDBOX_KEY=${seed.sandboxKey}`);
    console.log(`CK_LIVE_KEY=${seed.liveKey}\n`);
  } else {
    console.log("Development account exists; `npm run dev:key` prints a fresh sandbox key.");
  }

  if (!development && !buildIsFresh()) {
    console.log("Building (next build)...");
    const built = await run(nextBin, ["build"]);
    if (built !== 0) await shutdown(built);
  }

  running.next = await prepareNextApp({ dir: process.cwd(), port, hostname: "localhost", dev: development });
  // API requests go straight to their families' dispatch tables, skipping Next's router (docs/architecture.md,
  // "Keyed requests"); CHARTKEY_API_DIRECT=off sends them through Next.js, whose catch-all route files serve the
  // same tables.
  const directApi = process.env.CHARTKEY_API_DIRECT === "off" ? undefined : directApiHandler({ port, hostname: "localhost" });
  running.server = createPlatformServer(running.next.handle, trustedProxyHops(), directApi);
  const hotReload = running.next.upgrade;
  // Development only: the hot reload socket goes to Next.js; other upgrade requests are closed.
  if (hotReload) running.server.on("upgrade", (req, socket, head) => (req.url?.startsWith("/_next/") ? void hotReload(req, socket, head) : socket.destroy()));
  running.server.once("error", (error) => {
    console.error(`server: ${error.message}`);
    void shutdown(1);
  });
  await new Promise<void>((resolve) => running.server?.listen(port, resolve));
  // The worker starts once the server listens: a sandbox import reads the synthetic health systems this server
  // serves, and a job re-run after a crash would otherwise find no one answering and end its simulation with a
  // source that never imported. A database server this process has just started has no other worker on it: the
  // jobs still marked active there were cut short by a crash of the previous launcher, and run again now rather
  // than after they expire.
  const serverJustStarted = database.origin === "embedded";
  running.worker = process.env.CHARTKEY_WORKER === "off" ? undefined : await startWorker(database.url, JOBS, { serverJustStarted });
  if (development) console.log("Development mode: pages reload as you edit them; the server restarts when a file it runs changes.");
  console.log(`Chartkey on http://localhost:${port}  (API http://localhost:${port}/api/v1, demo http://localhost:${port}/demo/v1)`);
  // Prometheus metrics on a port of their own, when CHARTKEY_METRICS_PORT asks (docs/operations.md).
  running.metrics = await startConfiguredMetricsServer();
  if (running.metrics) console.log(`Metrics on ${process.env.CHARTKEY_METRICS_HOST || "127.0.0.1"}:${process.env.CHARTKEY_METRICS_PORT}/metrics`);
} catch (error) {
  // Whatever failed says why (with its causes), and what had started stops before the exit.
  console.error(`Chartkey could not start: ${describeFailure(error)}`);
  await shutdown(1);
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}
