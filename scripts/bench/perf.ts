import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";

/** Where some processes' CPU went, by symbol, from a system-wide `perf record`: flat self time (no call graphs). */
export type PerfSummary = { processes: string; samples: number; kernelPercent: number; symbols: { name: string; kernel: boolean; percent: number }[] };

/** A summary, or why there is none (perf missing, or unable to sample the system). */
export type PerfOutcome = PerfSummary | { unavailable: string };

/** Which processes' samples to read: every process of a command (e.g. postgres), or one process (all its threads). */
export type PerfFilter = { command: string } | { pid: number; name: string };

/** What perf shows for code it has no symbol for: in Node.js, the JavaScript V8 compiled at run time. */
export const NO_SYMBOL = "(code without a symbol: in Node.js, JIT-compiled JavaScript)";

/** A running system-wide `perf record`, or why there is none (the bench goes on without it). */
export type PerfRecording = { stop: () => Promise<void> } | { unavailable: string };

const INSTALL_HINT = "Debian's linux-perf package provides it";

/**
 * Samples every CPU (499 Hz, no call graphs: PostgreSQL's binaries keep no frame pointers) into `file` until
 * stopped. Needs perf on the PATH and leave to read the whole system's events (root, or perf_event_paranoid <= 0).
 */
export async function recordSystem(file: string): Promise<PerfRecording> {
  const probe = spawnSync("perf", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return { unavailable: `perf is not installed (${INSTALL_HINT})` };
  const child = spawn("perf", ["record", "-a", "-F", "499", "-o", file], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  // perf says nothing once it records; one that cannot exits at once.
  const exited = once(child, "exit");
  const early = await Promise.race([exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 1_000))]);
  if (early) return { unavailable: `perf record could not sample the system: ${errors.trim().split("\n")[0] ?? "no reason given"}` };
  return {
    stop: async () => {
      child.kill("SIGINT");
      await exited;
    },
  };
}

/** The recording's samples of the processes `filter` names, their top symbols by share. */
export function summarizePerf(file: string, filter: PerfFilter, top = 15): PerfOutcome {
  const select = "pid" in filter ? ["--pid", String(filter.pid)] : ["--comm", filter.command];
  const report = spawnSync("perf", ["report", "-i", file, ...select, "--sort", "sym", "--stdio", "--percentage", "relative"], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (report.status !== 0) return { unavailable: `perf report failed: ${report.stderr.trim().split("\n")[0] ?? ""}` };
  return parsePerfReport(report.stdout, "pid" in filter ? filter.name : filter.command, top);
}

/**
 * `perf report --sort sym --stdio` text: the sample count from its header (perf rounds it to thousands), each
 * `  12.34%  [k] symbol` line (the kernel's marked [k]), the kernel's share summed over all of them, and the
 * addresses without a symbol summed as one (NO_SYMBOL).
 */
export function parsePerfReport(text: string, processes: string, top: number): PerfSummary {
  const header = /^# Samples: (\d+)([KM]?)/m.exec(text);
  const samples = header ? Number(header[1]) * ({ K: 1e3, M: 1e6 }[header[2] as "K" | "M"] ?? 1) : 0;
  const symbols: PerfSummary["symbols"] = [];
  let kernelPercent = 0;
  for (const line of text.split("\n")) {
    const match = /^\s+([\d.]+)%\s+\[([k.])\]\s+(.+?)\s*$/.exec(line);
    if (!match) continue;
    const percent = Number(match[1]);
    const kernel = match[2] === "k";
    if (kernel) kernelPercent += percent;
    if (!kernel && /^0x[0-9a-f]+$/.test(match[3]!)) {
      const unnamed = symbols.find((symbol) => symbol.name === NO_SYMBOL);
      if (unnamed) unnamed.percent += percent;
      else symbols.push({ name: NO_SYMBOL, kernel: false, percent });
    } else symbols.push({ name: match[3]!, kernel, percent });
  }
  symbols.sort((left, right) => right.percent - left.percent);
  return { processes, samples, kernelPercent, symbols: symbols.slice(0, top) };
}
