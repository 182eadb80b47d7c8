import os from "node:os";

export type Machine = { cpuModel: string; cpus: number; memoryGiB: number; node: string; platform: string };

/** The machine the bench ran on, as results.md reports it. */
export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpus: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** The 1-minute load average, rounded: what else was running when a measurement started. */
export function loadAverage(): number {
  return Math.round(os.loadavg()[0]! * 100) / 100;
}

export type LoadWait = { seconds: number; load: number };

/**
 * Waits until the 1-minute load average is below `below`, checking every `everyMs`, for at most `maxSeconds`: a build
 * or an earlier run that has just ended still holds it up (it falls by about a factor e a minute), and the work behind
 * it, such as writeback or the kernel compacting memory, still shares the cores with what is measured next.
 */
export async function waitForQuiet(below: number, maxSeconds: number, options: { read?: () => number; everyMs?: number } = {}): Promise<LoadWait> {
  const { read = loadAverage, everyMs = 5_000 } = options;
  const started = performance.now();
  let load = read();
  while (load >= below && performance.now() - started + everyMs <= maxSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    load = read();
  }
  return { seconds: Math.round((performance.now() - started) / 1000), load };
}
