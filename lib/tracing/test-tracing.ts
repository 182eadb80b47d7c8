import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { startTracing } from "./start-tracing";

/**
 * Tracing into memory for tests, started when this module loads: imported first, before anything loads pg, as
 * scripts/start.ts starts it before the platform's modules.
 */
export const exporter = new InMemorySpanExporter();
export const tracing = startTracing({ processor: new SimpleSpanProcessor(exporter) });
