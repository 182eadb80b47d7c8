// A worker in its own process, for tests that kill one mid-job: `tsx test/run-worker.ts` with DATABASE_URL set.
import { startWorker } from "@/lib/jobs";
import { JOBS } from "@/scripts/platform-jobs";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is not set");
await startWorker(databaseUrl, JOBS);
console.log("worker started");
