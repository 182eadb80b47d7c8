/**
 * `npm run fidelity -- FILE...`: runs each FHIR Bundle through the normalizer and prints its fidelity report (records
 * by category, skips by resource type and reason, context resources, warnings), for a developer checking a health
 * system's data before going live. Exits 1 when a file cannot be read as JSON.
 */
import fs from "node:fs";
import { normalizeBundle, summarizeNormalization, type NormalizationSummary } from "@/lib/records";

function printReport(file: string, summary: NormalizationSummary): void {
  const lines = [`# ${file}`, "records:"];
  for (const [category, count] of Object.entries(summary.records)) lines.push(`  ${category}: ${count}`);
  lines.push("skipped:");
  for (const [type, reasons] of Object.entries(summary.skippedByType)) {
    for (const [reason, count] of Object.entries(reasons)) lines.push(`  ${type}: ${count} (${reason})`);
  }
  lines.push("context (not records; read through references):");
  for (const [type, count] of Object.entries(summary.context)) lines.push(`  ${type}: ${count}`);
  lines.push(`warnings (${summary.recordsWithWarnings} records):`);
  for (const [warning, count] of Object.entries(summary.warnings)) lines.push(`  ${count} × ${warning}`);
  console.log(lines.join("\n"));
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: npm run fidelity -- FILE...");
  process.exit(2);
}
let failed = false;
for (const file of files) {
  let bundle: unknown;
  try {
    bundle = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`${file}: cannot read as JSON: ${error instanceof Error ? error.message : String(error)}`);
    failed = true;
    continue;
  }
  printReport(file, summarizeNormalization(normalizeBundle(bundle, { sourceId: "src_fidelity", sourceName: file }, "u_fidelity")));
}
process.exit(failed ? 1 : 0);
