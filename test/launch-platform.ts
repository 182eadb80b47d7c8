import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { START_NODE_ARGS } from "@/scripts/start-command";

export type LaunchedPlatform = {
  /** The node process running scripts/start.ts itself (no npm or tsx parent between), so a signal reaches it. */
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once it serves; rejects when it exits first, with what it printed. */
  ready: Promise<void>;
};

/**
 * Starts a platform as `npm start` starts it, on its own port and data folder, with `env` added to its environment.
 * It gets its own embedded database unless `env` names one: a DATABASE_URL the test process holds (a spec that
 * reads the shared platform's database sets one in its worker) is not passed on.
 */
export function launchPlatform(options: { port: number; dataDir: string; env?: Record<string, string> }): LaunchedPlatform {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [...START_NODE_ARGS], {
    env: { ...inherited, PORT: String(options.port), CHARTKEY_DATA_DIR: options.dataDir, NEXT_TELEMETRY_DISABLED: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Chartkey on http://localhost:${options.port}`)) resolve();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before serving:\n${output}`)));
  });
  return { child, output: () => output, exited, ready };
}
