import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderChart } from "./chart";
import { renderReport } from "./report";
import type { BenchResults } from "./results";

/** The 1-endpoint fan-out of runs that kept it only in results.md's text: deliveries/s (× bare loop). */
const WEBHOOK_FANOUT_BEFORE: Record<string, string> = { "2026-11-23T23:26:11.632Z": "399 (0.06×)" };

/**
 * Writes a run into `out`: results.json as measured, and results.md and results.svg rendered from it, beside the
 * earlier run in `out`/before/results.json when there is one.
 */
export async function writeResults(out: string, results: BenchResults): Promise<void> {
  const folder = path.resolve(out);
  await mkdir(folder, { recursive: true });
  const beforeFile = path.join(folder, "before", "results.json");
  const before = existsSync(beforeFile) ? (JSON.parse(await readFile(beforeFile, "utf8")) as BenchResults) : undefined;
  const note = before ? `Before: the run of ${before.startedAt} at commit \`${before.commit}\` (${path.relative(folder, beforeFile)}), on the same machine${settingsBeside(before, results)}.` : "";
  // Runs before the fan-out bench wrote its figures into results.json reported one endpoint in results.md's text.
  const webhookNote = before && !before.webhooks ? (WEBHOOK_FANOUT_BEFORE[before.startedAt] ?? undefined) : undefined;
  await writeFile(path.join(folder, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(path.join(folder, "results.md"), renderReport(results, before ? { results: before, note, webhookNote } : undefined));
  await writeFile(path.join(folder, "results.svg"), renderChart(results));
}

/** How the earlier run's settings stand beside this run's, as the before/after note says it. */
function settingsBeside(before: BenchResults, results: BenchResults): string {
  const differences: string[] = [];
  if (before.settings.duration !== results.settings.duration || results.quick) {
    differences.push(`this run: ${results.quick ? "--quick, " : ""}${results.settings.duration} s per measurement`);
  }
  if (Boolean(before.settings.interleaved) !== Boolean(results.settings.interleaved)) {
    differences.push(results.settings.interleaved ? "its endpoints measured one server after the other, this run's in interleaved halves" : "its endpoints measured in interleaved halves, this run's one server after the other");
  }
  return differences.length === 0 ? " with the same settings" : ` (${differences.join("; ")})`;
}
