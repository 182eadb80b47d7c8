// `npm run dev`: the platform for working on its code. The same server as `npm start` (scripts/start.ts: internal
// headers, direct API dispatch, security headers, the job worker in its process), with Next.js in development mode
// (pages and components compiled on demand, hot reload in the browser, no `next build`) and the server side
// restarted by `tsx watch` when a file it runs changes (lib/, scripts/; app/ and components/ are Next's to reload).
// This process holds the database across those restarts: the embedded PostgreSQL in CHARTKEY_DATA_DIR (or
// DATABASE_URL's server), migrated before the first start. Ctrl-C stops the server, then the database.
//
// Differences from `npm start`, all in development mode only (test/dev-server.int.test.ts): the pages' policy adds
// 'unsafe-eval' and inline styles (lib/server/security-headers.ts); upgrade requests to /_next/ go to Next's hot
// reload socket and any other upgrade request is closed; pages render through Next's development server (slower,
// with its error overlay); a restart drops requests in flight.
import { spawn } from "node:child_process";
import path from "node:path";
import { loadLocalEnv } from "@/lib/config";

Object.assign(process.env, { NODE_ENV: "development" });
await loadLocalEnv();
const { openPlatformDatabase, platformDataDir } = await import("@/lib/db");
const { describeFailure, flushLog } = await import("@/lib/log");

let database: Awaited<ReturnType<typeof openPlatformDatabase>>;
try {
  database = await openPlatformDatabase();
} catch (error) {
  console.error(`Chartkey could not start: ${describeFailure(error)}`);
  await flushLog();
  process.exit(1);
}
console.log(database.origin === "external" ? "Database: DATABASE_URL" : `Database: embedded PostgreSQL in ${platformDataDir()}`);
if (database.applied.length > 0) console.log(`Applied ${database.applied.length} migration(s).`);

// Its own process group, so a Ctrl-C reaches tsx watch once, from here, and it stops the server before it exits.
const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
const nextsOwn = ["app", "components"].flatMap((folder) => ["--exclude", `${path.resolve(folder)}/**`]);
const watcher = spawn(process.execPath, [tsx, "watch", "--clear-screen=false", ...nextsOwn, "scripts/start.ts"], {
  stdio: ["ignore", "inherit", "inherit"],
  detached: true,
  env: { ...process.env, DATABASE_URL: database.url, CHARTKEY_DEV: "1" },
});
const watcherExited = new Promise<number | null>((resolve) => watcher.once("exit", (code) => resolve(code)));

let stopping: Promise<never> | undefined;
function stop(code: number): Promise<never> {
  stopping ??= (async () => {
    if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill("SIGTERM");
    await watcherExited;
    await database.stop().catch((error: unknown) => console.error(`database stop: ${(error as Error).message}`));
    await flushLog();
    process.exit(code);
  })();
  return stopping;
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
// The watcher ends by itself only when it fails to start.
void watcherExited.then((code) => stop(code ?? 1));
