import type { Attributes } from "@opentelemetry/api";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import type { Context } from "@opentelemetry/api";

// Loaded only when tracing is on (scripts/start.ts and scripts/worker.ts import it when OTEL_EXPORTER_OTLP_ENDPOINT
// is set), so a deployment without a collector loads none of the SDK.

/**
 * Attributes an exported span may keep. The instrumentations record more (a request's full URL with its query, the
 * path of a Connect link or a FHIR search naming the patient, a webhook URL that may embed a token), so every span
 * is filtered to these at export: methods, statuses, hosts and ports, the database system and the statement text
 * (Prisma, pg-boss and the rate limiter send parameters apart, so statements hold no values), and our own
 * `chartkey.*` attributes, which name operations, queues, providers and counts only.
 */
const KEPT = new Set([
  "http.request.method",
  "http.method",
  "http.response.status_code",
  "http.status_code",
  "server.address",
  "server.port",
  "net.peer.name",
  "net.peer.port",
  "network.peer.address",
  "network.peer.port",
  "db.system",
  "db.system.name",
  "db.name",
  "db.namespace",
  "db.statement",
  "db.query.text",
  "db.operation",
  "db.operation.name",
  "db.postgresql.plan",
  "error.type",
  "next.span_type",
]);

const kept = (key: string) => KEPT.has(key) || key.startsWith("chartkey.");

/** A span as exported: only the kept attributes, and a name without a path where an instrumentation put one. */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(span.attributes)) if (kept(key)) attributes[key] = value;
  // Our spans are named by declared operation, queue or phase; others (Next.js's "GET /receipts/<token>", an
  // instrumentation's "GET /fhir/Observation") keep only their first word.
  const name = span.instrumentationScope.name === "chartkey" || span.instrumentationScope.name.startsWith("@opentelemetry/instrumentation-pg") ? span.name : span.name.split(" ")[0]!;
  return Object.create(span, {
    name: { value: name },
    attributes: { value: attributes },
    events: { value: span.events.map((event) => ({ ...event, attributes: Object.fromEntries(Object.entries(event.attributes ?? {}).filter(([key]) => kept(key))) })) },
  }) as ReadableSpan;
}

/** Hands the exporter each ended span redacted (redactedSpan). */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}
  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }
  onEnd(span: ReadableSpan): void {
    this.next.onEnd(redactedSpan(span));
  }
  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

export type RunningTracing = { shutdown: () => Promise<void>; forceFlush: () => Promise<void> };

/**
 * Starts the OpenTelemetry SDK: spans of PostgreSQL statements (pg, below Prisma's driver adapter and pg-boss),
 * outbound requests (node:http/https for live providers and webhooks, fetch for the rest) and the platform's own
 * (lib/tracing/spans.ts), exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (the SDK reads the standard
 * OTEL_* variables: headers, service name, sampler), or to `processor` (tests). Incoming requests get their span from
 * the route wrapper (named by operation), not from the http instrumentation.
 */
export function startTracing(options: { processor?: SpanProcessor } = {}): RunningTracing {
  const processor = new RedactingSpanProcessor(options.processor ?? new BatchSpanProcessor(new OTLPTraceExporter()));
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "chartkey",
    autoDetectResources: false,
    spanProcessors: [processor],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown(), forceFlush: () => processor.forceFlush() };
}
