// A launcher that only sets a watchdog (lib/db/postgres-watchdog.ts) on a process and waits, for tests that kill it:
// `tsx test/hold-watchdog.ts <pid> <clusterDir>`.
import { watchServer } from "@/lib/db";

watchServer(Number(process.argv[2]), process.argv[3]!);
console.log("watching");
setInterval(() => {}, 60_000);
