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
