// `npm run worker`: the job worker alone, for deployments that scale workers apart from app instances.
import { loadLocalEnv } from "@/lib/config/local-env";

await loadLocalEnv();
const { closeDb } = await import("@/lib/db/client");
const { openPlatformDatabase } = await import("@/lib/db/open-platform-database");
const { startWorker } = await import("@/lib/jobs/worker");

const database = await openPlatformDatabase();
const worker = await startWorker(database.url);
console.log("Chartkey worker running; Ctrl-C stops it.");

// Ctrl-C arrives more than once (the terminal and tsx both send it): stop once.
let stopping: Promise<void> | undefined;
const stop = () =>
  (stopping ??= (async () => {
    await worker.stop().catch(() => {});
    await closeDb();
    await database.stop().catch(() => {});
    process.exit(0);
  })());
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
