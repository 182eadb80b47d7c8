import type { BenchResults } from "./results";
import { ratio } from "./results";

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** bench/results.svg: requests per second of the platform and the baseline, one pair of bars per measurement. */
export function renderChart(results: BenchResults): string {
  const width = 980;
  const left = 380;
  const barArea = width - left - 150;
  const rowHeight = 62;
  const top = 56;
  const height = top + results.runs.length * rowHeight + 40;
  const max = Math.max(1, ...results.runs.flatMap((run) => [run.app.requestsPerSecond, run.baseline.requestsPerSecond]));
  const bar = (value: number) => Math.max(1, Math.round((value / max) * barArea));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="16" font-weight="600">Requests per second, ${results.settings.connections} connections (higher is better)</text>`,
    `<rect x="${left}" y="36" width="12" height="12" fill="#2563eb"/><text x="${left + 18}" y="46">platform (npm start)</text>`,
    `<rect x="${left + 170}" y="36" width="12" height="12" fill="#9ca3af"/><text x="${left + 188}" y="46">baseline (node:http + pg)</text>`,
  ];
  results.runs.forEach((run, index) => {
    const y = top + index * rowHeight;
    const dataset = `${run.records.toLocaleString("en-US")} records`;
    parts.push(`<text x="16" y="${y + 20}" font-weight="600">${escape(run.label)}</text>`);
    parts.push(`<text x="16" y="${y + 38}" fill="#4b5563">${dataset}: app / baseline ${ratio(run).toFixed(2)}×</text>`);
    parts.push(`<rect x="${left}" y="${y + 6}" width="${bar(run.app.requestsPerSecond)}" height="18" fill="#2563eb"/>`);
    parts.push(`<text x="${left + bar(run.app.requestsPerSecond) + 6}" y="${y + 20}">${Math.round(run.app.requestsPerSecond).toLocaleString("en-US")}/s, p50 ${run.app.p50} ms</text>`);
    parts.push(`<rect x="${left}" y="${y + 28}" width="${bar(run.baseline.requestsPerSecond)}" height="18" fill="#9ca3af"/>`);
    parts.push(`<text x="${left + bar(run.baseline.requestsPerSecond) + 6}" y="${y + 42}">${Math.round(run.baseline.requestsPerSecond).toLocaleString("en-US")}/s, p50 ${run.baseline.p50} ms</text>`);
  });
  parts.push(`<text x="16" y="${height - 14}" fill="#6b7280">${escape(results.machine.cpuModel)}, ${results.machine.cpus} cores, Node.js ${results.machine.node}; ${results.startedAt}</text>`);
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
