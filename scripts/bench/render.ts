// `tsx scripts/bench/render.ts [folder]` (default bench): renders results.md and results.svg again from the folder's
// results.json, measuring nothing, for a change to the report's wording or its targets' arithmetic; results.json is
// written back as it was read.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { BenchResults } from "./results";
import { writeResults } from "./write-results";

const out = process.argv[2] ?? "bench";
const results = JSON.parse(await readFile(path.join(out, "results.json"), "utf8")) as BenchResults;
await writeResults(out, results);
console.log(`Rendered ${out}/results.md and results.svg from ${out}/results.json`);
