import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";

// The platform's own spans, through the OpenTelemetry API only: without a registered SDK (OTEL_EXPORTER_OTLP_ENDPOINT
// unset, lib/tracing/start-tracing.ts not loaded) every call here is the API's no-op and costs a few object reads.
// Names and attributes are bounded and never carry a key, a token, a secret or record contents: operations by their
// declared name (`GET /api/v1/users/{subject}`), jobs by their queue, imports by provider name and trigger.

export { SpanKind };

const tracer = () => trace.getTracer("chartkey");

/**
 * Runs `work` inside a span (the active one for whatever it calls: statements, outbound requests, child spans),
 * ended when it settles. A failure marks the span as an error with the error's class only: messages may quote what
 * a health system or a client sent.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, options: { kind?: SpanKind; parent?: Context } = {}): Promise<T> {
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, options.parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute("error.type", error instanceof Error ? error.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A span for a period already over, with its real start and end: a conformance phase lasts across many jobs, so
 * its span is recorded when it ends rather than held open.
 */
export function recordSpan(name: string, attributes: Attributes, startTime: Date, endTime: Date): void {
  tracer().startSpan(name, { kind: SpanKind.INTERNAL, attributes, startTime }, context.active()).end(endTime);
}

/** The W3C traceparent of the active span, to carry into a job it enqueues; undefined when nothing is traced. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a traceparent (from a request header or a job's data) continues, or a new trace's. */
export function contextFrom(traceparent: unknown): Context {
  return typeof traceparent === "string" && traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** The active trace's id for a log line (`trace_id`, `span_id`), or nothing outside a traced span. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const spanContext = span.spanContext();
  return isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
}

/** Adds attributes to the active span (a no-op outside one). */
export function annotateSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
