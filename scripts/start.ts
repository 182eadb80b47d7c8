// `npm start`: the whole platform on one machine. Starts the embedded PostgreSQL (unless DATABASE_URL is set),
// applies migrations, seeds the development account on first run, builds when the build is stale, then serves
// Next.js on PORT with the job worker in this process. Ctrl-C stops the server, the worker and the database.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { buildIsFresh, loadLocalEnv } from "@/lib/config";

await loadLocalEnv();
const { seedDevelopment } = await import("@/lib/applications/development-seed");
const { closeDb } = await import("@/lib/db/client");
const { openPlatformDatabase, platformDataDir } = await import("@/lib/db/open-platform-database");
const { startWorker } = await import("@/lib/jobs/worker");

const port = Number(process.env.PORT ?? 3000);
const nextBin = path.resolve("node_modules/.bin/next");

const database = await openPlatformDatabase();
console.log(database.origin === "external" ? "Database: DATABASE_URL" : `Database: embedded PostgreSQL in ${platformDataDir()}`);
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

// Filled in as they start, so a shutdown during the build stops only what is running.
const running: { server?: ChildProcess; worker?: Awaited<ReturnType<typeof startWorker>> } = {};
let stopping: Promise<never> | undefined;

// Ctrl-C reaches every process of the group (and tsx relays it again), so shutdown runs once and later calls wait.
function shutdown(code: number): Promise<never> {
  stopping ??= (async () => {
    const { server, worker } = running;
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    await worker?.stop().catch((error: unknown) => console.error(`worker stop: ${(error as Error).message}`));
    await closeDb();
    await database.stop().catch((error: unknown) => console.error(`database stop: ${(error as Error).message}`));
    console.log("Chartkey stopped.");
    process.exit(code);
  })();
  return stopping;
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

if (!buildIsFresh()) {
  console.log("Building (next build)...");
  const built = await run(nextBin, ["build"]);
  if (built !== 0) await shutdown(built);
}

running.worker = process.env.CHARTKEY_WORKER === "off" ? undefined : await startWorker(database.url);
running.server = spawn(nextBin, ["start", "-p", String(port)], { stdio: "inherit", env: process.env });
running.server.once("exit", (code) => void shutdown(code ?? 1));
console.log(`Chartkey on http://localhost:${port}  (API http://localhost:${port}/api/v1, demo http://localhost:${port}/demo/v1)`);

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}
