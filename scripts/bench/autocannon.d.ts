// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  export type AutocannonRequest = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    /** Resolve with the run's own counts and encoded histograms (RawResult), to be combined by aggregateResult. */
    skipAggregateResult?: boolean;
  };
  export type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; total: number; p50: number; p90: number; p99: number };
  export type Result = {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
  };
  /** One run's result as `skipAggregateResult` gives it: counts, and its latencies as an encoded histogram. */
  export type RawResult = {
    totalCompletedRequests: number;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    latencies: string;
  };
  function autocannon(options: Options & { skipAggregateResult: true }): Promise<RawResult>;
  function autocannon(options: Options): Promise<Result>;
  namespace autocannon {
    /** Runs' raw results as one result: their counts added, their latency histograms merged. */
    function aggregateResult(results: RawResult[], options: { url: string; connections?: number }): Result;
  }
  export default autocannon;
}
