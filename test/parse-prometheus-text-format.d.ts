// Types for parse-prometheus-text-format (it ships none): prom2json's shape.
declare module "parse-prometheus-text-format" {
  type Labels = Record<string, string>;
  export type PrometheusSample = { labels?: Labels; value?: string; buckets?: Record<string, string>; count?: string; sum?: string };
  export type PrometheusFamily = { name: string; help: string; type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"; metrics: PrometheusSample[] };
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
