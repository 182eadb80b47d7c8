import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { processState } from "@/lib/process-state";

/**
 * The platform's Prometheus metrics: one registry per process (every copy of this module reaches the same one), its
 * series named `chartkey_*`. Counters and histograms are bumped in memory where the thing happens (no database
 * work on the request path); the gauges that describe the database (queue depth, webhook backlog) are read when
 * Prometheus scrapes (./scrape.ts). Every label value is bounded: operation names, statuses, environments, provider
 * names (operator-configured), outcomes and codes from fixed lists; never a subject, key, token or request id.
 */
function create() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "chartkey_http_requests_total",
      help: "API requests answered, by operation (its declared name), HTTP status and the key's environment (none without a key).",
      labelNames: ["operation", "status", "environment"] as const,
      registers,
    }),
    requestSeconds: new Histogram({
      name: "chartkey_http_request_duration_seconds",
      help: "Time to answer an API request, from its arrival in the route pipeline to its answer, by operation and status class.",
      labelNames: ["operation", "status_class"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimited: new Counter({
      name: "chartkey_rate_limit_refusals_total",
      help: "Requests refused 429 by a platform rate limit, by the limit's kind (key, agent, address, auth-failures...).",
      labelNames: ["kind"] as const,
      registers,
    }),
    databaseTimeouts: new Counter({
      name: "chartkey_database_timeouts_total",
      help: "Requests answered 503 database_unavailable because PostgreSQL did not answer within DATABASE_CONNECT_TIMEOUT_MS / DATABASE_QUERY_TIMEOUT_MS.",
      registers,
    }),
    imports: new Counter({
      name: "chartkey_imports_total",
      help: "Source imports finished, by provider name, environment and outcome (completed, or the failure code).",
      labelNames: ["provider", "environment", "outcome"] as const,
      registers,
    }),
    importSeconds: new Histogram({
      name: "chartkey_import_duration_seconds",
      help: "Wall-clock time of a source import, by provider name and outcome.",
      labelNames: ["provider", "outcome"] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    }),
    importResources: new Counter({
      name: "chartkey_import_resources_total",
      help: "FHIR resources read by completed imports, by provider name (rate() of it is resources per second).",
      labelNames: ["provider"] as const,
      registers,
    }),
    webhookAttempts: new Counter({
      name: "chartkey_webhook_attempts_total",
      help: "Webhook delivery attempts made, by outcome (succeeded, retrying, failed, deferred) and whether it was a retry (attempt 2 or later).",
      labelNames: ["outcome", "retry"] as const,
      registers,
    }),
    webhookSeconds: new Histogram({
      name: "chartkey_webhook_attempt_duration_seconds",
      help: "Time from sending a webhook to the receiver's answer (or the timeout), by outcome.",
      labelNames: ["outcome"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    consentGrants: new Counter({
      name: "chartkey_consent_grants_total",
      help: "Consent receipts granted, by environment.",
      labelNames: ["environment"] as const,
      registers,
    }),
    consentRevocations: new Counter({
      name: "chartkey_consent_revocations_total",
      help: "Active consent receipts revoked, by reason (patient, sandbox, superseded).",
      labelNames: ["reason"] as const,
      registers,
    }),
    consentExpiries: new Counter({
      name: "chartkey_consent_expiries_total",
      help: "Consent receipts marked expired by the lifecycle cycle.",
      registers,
    }),
    poolConnections: new Gauge({
      name: "chartkey_database_pool_connections",
      help: "This process's PostgreSQL connections by pool (main, counters) and state (in_use, idle).",
      labelNames: ["pool", "state"] as const,
      registers,
    }),
    poolWaiting: new Gauge({
      name: "chartkey_database_pool_waiting",
      help: "Callers in this process waiting for a connection of the pool.",
      labelNames: ["pool"] as const,
      registers,
    }),
    queueJobs: new Gauge({
      name: "chartkey_queue_jobs",
      help: "Jobs in the queue (pg-boss), by queue and state (waiting: created or retry and due; scheduled: not yet due; active).",
      labelNames: ["queue", "state"] as const,
      registers,
    }),
    queueOldestSeconds: new Gauge({
      name: "chartkey_queue_oldest_waiting_seconds",
      help: "Age of the oldest due job no worker has taken, by queue (0 when none waits).",
      labelNames: ["queue"] as const,
      registers,
    }),
    webhookBacklog: new Gauge({
      name: "chartkey_webhook_backlog",
      help: "Webhook deliveries pending (not yet delivered or given up), per application for the applications with the most (top 10), and `all` for the total.",
      labelNames: ["application"] as const,
      registers,
    }),
    webhookBacklogOldestSeconds: new Gauge({
      name: "chartkey_webhook_backlog_oldest_seconds",
      help: "Age of the oldest pending webhook delivery, same applications as chartkey_webhook_backlog.",
      labelNames: ["application"] as const,
      registers,
    }),
    scrapeErrors: new Counter({
      name: "chartkey_metrics_scrape_errors_total",
      help: "Scrapes whose database gauges could not be read (the database did not answer); the in-memory series are still served.",
      registers,
    }),
  };
}

/** This process's metrics. */
export function metrics() {
  return processState("metrics.registry", create);
}

/** `2xx`, `4xx`...: the histogram's status label, coarser than the counter's to keep its series few. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
