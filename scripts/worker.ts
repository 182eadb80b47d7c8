// `npm run worker`: the job worker alone, for deployments that scale workers apart from app instances.
import path from "node:path";
import { loadLocalEnv } from "@/lib/config/local-env";

await loadLocalEnv();
const { closeDb } = await import("@/lib/db/client");
const { migrate } = await import("@/lib/db/migrate");
const { resolveDatabase } = await import("@/lib/db/resolve-database");
const { startWorker } = await import("@/lib/jobs/worker");

const dataDir = path.resolve(process.env.CHARTKEY_DATA_DIR ?? ".data");
const database = await resolveDatabase({ dataDir: path.join(dataDir, "postgres") });
process.env.DATABASE_URL = database.url;
await migrate(database.url);
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
