import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { processStartTime, WATCHDOG_NAME } from "@/lib/db";

/** The pid of the PostgreSQL running on a cluster folder, from its lock file (null when none holds it). */
export async function serverPidOf(clusterDir: string): Promise<number | null> {
  const text = await readFile(path.join(clusterDir, "postmaster.pid"), "utf8").catch(() => null);
  return text ? Number(text.split("\n")[0]) : null;
}

/** The pid of the watchdog (lib/db/postgres-watchdog.ts) guarding a server, from /proc (Linux, where tests run). */
export async function watchdogOf(serverPid: number): Promise<number | null> {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const args = (await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "")).split("\0");
    if (args[3] === WATCHDOG_NAME && args[4] === String(serverPid)) return Number(entry);
  }
  return null;
}

/** True while the process runs (a zombie, exited but not yet collected, counts as gone). */
export async function running(pid: number): Promise<boolean> {
  return (await processStartTime(pid)) !== null;
}

/** Polls until `check` holds, failing after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
