import parsePrometheusTextFormat, { type PrometheusSample } from "parse-prometheus-text-format";

/** A scrape read with a third-party parser: each series' samples by name, and the declared type of each family. */
export type Scrape = {
  /** The samples of each name: a histogram `h` is read as `h_bucket`, `h_sum` and `h_count` (see `scrape`). */
  samples: Map<string, PrometheusSample[]>;
  /** Each family's `# TYPE`, as the endpoint declared it. */
  types: Map<string, string>;
  /** The sum of the values of `name`'s samples whose labels include `labels` (0 when there are none). */
  value: (name: string, labels?: Record<string, string>) => number;
  /** The label sets of `name`'s samples. */
  labels: (name: string) => Record<string, string>[];
};

/**
 * Scrapes `url` and parses it with parse-prometheus-text-format. That parser folds a histogram's labelled samples
 * into one sample without labels (its prom2json-style flattening), so a histogram's `# TYPE` line is taken out
 * before parsing and its `_bucket`, `_sum` and `_count` series are read as the plain series they are on the wire.
 */
export async function scrape(url: string, token?: string): Promise<Scrape> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (response.status !== 200) throw new Error(`scrape answered ${response.status}`);
  return parseScrape(await response.text());
}

export function parseScrape(text: string): Scrape {
  const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
  const samples = new Map<string, PrometheusSample[]>();
  for (const family of parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ""))) {
    samples.set(family.name, [...(samples.get(family.name) ?? []), ...family.metrics]);
  }
  const of = (name: string) => samples.get(name) ?? [];
  return {
    samples,
    types,
    value: (name, labels = {}) =>
      of(name)
        .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value))
        .reduce((sum, sample) => sum + Number(sample.value ?? 0), 0),
    labels: (name) => of(name).map((sample) => sample.labels ?? {}),
  };
}
