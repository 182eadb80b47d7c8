import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { metrics } from "./metrics";

type Panel = { type: string; title: string; targets?: { expr: string }[]; panels?: Panel[] };

/** The metric names a PromQL expression reads: `chartkey_*`, a histogram's series suffixes taken off. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\bchartkey_[a-z_]+\b/g)].map(([name]) => name.replace(/_(bucket|sum|count)$/, ""));
}

/** The names of the series this platform exports (its registry, the one the endpoint serves). */
async function exported(): Promise<Set<string>> {
  return new Set((await metrics().registry.getMetricsAsJSON()).map((metric) => metric.name));
}

const histograms = async () => new Set((await metrics().registry.getMetricsAsJSON()).filter((metric) => String(metric.type) === "histogram").map((metric) => metric.name));

describe("docs/grafana-dashboard.json", () => {
  const dashboard = JSON.parse(fs.readFileSync("docs/grafana-dashboard.json", "utf8")) as { title: string; panels: Panel[] };
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);

  it("is a dashboard whose every graph has a query, and every query names only metrics the platform exports", async () => {
    const names = await exported();
    const histogramNames = await histograms();
    const graphs = panels.filter((panel) => panel.type !== "row");
    expect(graphs.length).toBeGreaterThan(10);
    for (const panel of graphs) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        const read = metricNames(expr);
        expect(read.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const name of read) expect(names.has(name), `${panel.title}: ${name} is not exported`).toBe(true);
        // A quantile reads a histogram's buckets, never a counter's.
        if (expr.includes("histogram_quantile")) for (const name of read) expect(histogramNames.has(name), `${panel.title}: ${name}`).toBe(true);
      }
    }
  });

  it("shows every series the platform exports somewhere", async () => {
    const shown = new Set(panels.flatMap((panel) => (panel.targets ?? []).flatMap(({ expr }) => metricNames(expr))));
    const unshown = [...(await exported())].filter((name) => !shown.has(name) && name !== "chartkey_metrics_scrape_errors_total");
    expect(unshown).toEqual([]);
  });
});

describe("docs/operations.md, Observing a deployment", () => {
  const text = fs.readFileSync("docs/operations.md", "utf8");

  it("names only metrics the platform exports, in its tables and its alerts' PromQL", async () => {
    const names = await exported();
    const section = text.slice(text.indexOf("## Observing a deployment"), text.indexOf("## Rotating"));
    const alerts = [...section.matchAll(/expr: (?:\|\n)?([\s\S]*?)(?=\n\s+(?:for:|- alert:)|\n```)/g)].map((match) => match[1]!);
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    for (const expr of alerts) expect(metricNames(expr).length, expr).toBeGreaterThan(0);
    for (const name of metricNames(section)) expect(names.has(name), `${name} is not exported`).toBe(true);
    // And every exported series is described there.
    for (const name of names) expect(section, name).toContain(name);
  });
});
