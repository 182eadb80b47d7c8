import { spawn } from "node:child_process";

/** The watchdog's name in process listings (its `$0`). */
export const WATCHDOG_NAME = "chartkey-postgres-watchdog";

// The shell reads its stdin, a pipe only this process holds open: a line means "the launcher stops the server
// itself"; end of file without one means the launcher died (kill -9, an OOM kill), and the server is asked for a
// fast shutdown (SIGINT) instead of outliving it. Only if the pid still runs `postgres -D <cluster>`: the server
// may have died first and its pid gone to another process.
const SCRIPT = [
  "if read -r _; then exit 0; fi",
  'if [ -r "/proc/$1/cmdline" ]; then args=$(tr "\\0" " " < "/proc/$1/cmdline"); else args=$(ps -ww -o args= -p "$1" 2>/dev/null); fi',
  'case "$args " in *" -D $2 "*) kill -INT "$1" 2>/dev/null ;; esac',
].join("\n");

export type Watchdog = { release: () => void };

/**
 * Starts a watchdog that stops the PostgreSQL server `serverPid` on `clusterDir` when this process dies without
 * stopping it, so a crashed launcher leaves no server running; `release` dismisses it before a deliberate stop. None
 * on Windows, where the embedded server cannot be signalled this way; a restart there stops the orphan instead.
 */
export function watchServer(serverPid: number, clusterDir: string): Watchdog {
  if (process.platform === "win32") return { release: () => {} };
  const watchdog = spawn("/bin/sh", ["-c", SCRIPT, WATCHDOG_NAME, String(serverPid), clusterDir], {
    // Its own process group: a Ctrl-C meant for the launcher must not end it before the launcher has stopped.
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  watchdog.on("error", () => {});
  watchdog.stdin.on("error", () => {});
  // Neither the watchdog nor its pipe keeps this process running.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  return { release: () => watchdog.stdin.end("\n") };
}
