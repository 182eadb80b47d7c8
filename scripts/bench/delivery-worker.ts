// A webhook delivery worker in its own process, for the fan-out bench's two-worker run: `tsx
// scripts/bench/delivery-worker.ts` with DATABASE_URL set; prints `ready` once it works the queue, stops on SIGTERM.
import { startWorker } from "@/lib/jobs";
import { webhookDeliveryJob } from "@/lib/webhooks";

const worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]);
console.log("ready");
process.on("SIGTERM", () => void worker.stop().then(() => process.exit(0)));
