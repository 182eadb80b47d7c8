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
  const note = before
    ? `Before: the run of ${before.startedAt} at commit \`${before.commit}\` (${path.relative(folder, beforeFile)}), on the same machine${before.settings.duration === results.settings.duration && !results.quick ? " with the same settings" : ` (this run: ${results.quick ? "--quick, " : ""}${results.settings.duration} s per measurement)`}.`
    : "";
  // Runs before the fan-out bench wrote its figures into results.json reported one endpoint in results.md's text.
  const webhookNote = before && !before.webhooks ? (WEBHOOK_FANOUT_BEFORE[before.startedAt] ?? undefined) : undefined;
  await writeFile(path.join(folder, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(path.join(folder, "results.md"), renderReport(results, before ? { results: before, note, webhookNote } : undefined));
  await writeFile(path.join(folder, "results.svg"), renderChart(results));
}
