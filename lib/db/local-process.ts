import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";

// What the embedded database's launcher needs to know about other processes on this machine: whether a pid still
// names the process that wrote it down (pids are reused), and what a process runs. Linux answers from /proc; other
// systems (macOS) from ps.

const run = promisify(execFile);

/** True when a process with this pid exists (ours or another user's). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When the process started, as an opaque string, or null when no such process exists (or it cannot be read). A pid
 * plus its start time names one process: a later process reusing the pid has another start time.
 */
export async function processStartTime(pid: number): Promise<string | null> {
  if (process.platform === "linux") {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
    // The fields after the command name (which may itself hold spaces and parentheses, hence the last ")") are
    // plain: field 3 is the state and field 22 the start time in clock ticks since boot. A zombie has exited; only
    // its parent has yet to collect it (an orphan's new parent, pid 1, may never do so in a container).
    const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (!fields || fields[0] === "Z" || fields[0] === "X") return null;
    return fields[19] ?? null;
  }
  return (await psField(pid, "lstart")) || null;
}

/**
 * The process's arguments (`argv[0]` first), or null when it does not exist or cannot be read. From ps (not Linux)
 * the arguments arrive as one string split at spaces, so a path holding a space reads as two arguments there.
 */
export async function processArguments(pid: number): Promise<string[] | null> {
  if (process.platform === "linux") {
    const raw = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => null);
    return raw ? raw.replace(/\0$/, "").split("\0") : null;
  }
  const args = await psField(pid, "args");
  return args ? args.split(" ") : null;
}

async function psField(pid: number, field: "lstart" | "args"): Promise<string> {
  try {
    return (await run("ps", ["-ww", "-o", `${field}=`, "-p", String(pid)])).stdout.trim();
  } catch {
    return "";
  }
}

/** Waits until the process that started at `startTime` is gone; false when it still runs after `timeoutMs`. */
export async function waitForExit(pid: number, startTime: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await processStartTime(pid)) === startTime) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}
