import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";

/** A script running in its own node process, as its npm command runs it. */
export type TsxProcess = {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The first capture group of the ready pattern (or its whole match): e.g. the URL a server says it serves. */
  ready: string;
  output: () => string;
  exited: Promise<number | null>;
  /** Kills it as the OOM killer does (SIGKILL: no handler runs) and waits until it is gone. */
  kill9: () => Promise<void>;
};

/**
 * Starts `script` as one node process with tsx's loader (no npm or tsx parent between, so a signal reaches it) and
 * resolves once its output matches `ready`; rejects with its output if it exits first. `spawned` gets the child at
 * once, so a caller starting several can stop them all even when one fails before the others are ready. Used by
 * the tests and bench modes that run the platform as several processes.
 */
export async function startTsxProcess(script: string, env: Record<string, string>, ready: RegExp, spawned?: ChildProcess[]): Promise<TsxProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  spawned?.push(child);
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const readyText = await new Promise<string>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) resolve(match[1] ?? match[0]);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    void exited.then((code) => reject(new Error(`${script} exited with ${code} before it was ready:\n${output.slice(-4000)}`)));
  });
  const kill9 = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  return { child, ready: readyText, output: () => output, exited, kill9 };
}

/** Stops each (SIGTERM: their shutdown handlers run) and waits until all are gone. */
export async function stopProcesses(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return null;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      return gone;
    }),
  );
}
