import { exporter, tracing } from "./test-tracing";
import { SpanKind } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import pino from "pino";
import { log } from "@/lib/log";
import { inSpan, traceLogFields } from "@/lib/tracing";
import { stopSender } from "@/lib/queue";
import { sandboxSimulationJob } from "@/lib/simulation";
import { webhookDeliveryJob } from "@/lib/webhooks";
import { bearer, createTestApplication } from "@/test/factories";
import { callApi } from "@/test/route-calls";
import { createSession, getSession, serveSyntheticEhr, simulate } from "@/test/sandbox";
import { startReceiver, waitFor } from "@/test/webhook-receiver";
import { redactedSpan } from "./start-tracing";

// A whole sandbox Connect-to-read flow with the OpenTelemetry SDK exporting into memory (through the same redacting
// processor as the OTLP exporter): the spans are there, named as documented, joined into traces, and none carries a
// key, a token, a secret or record contents.
let worker: RunningWorker;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

serveSyntheticEhr();

beforeAll(async () => {
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob, sandboxSimulationJob]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await worker?.stop();
  await stopSender();
  await receiver?.close();
  await tracing.shutdown();
});

describe("traces", () => {
  it("a Connect-to-read flow: request spans by operation, statements, outbound requests, the import and webhook jobs continuing the request's trace; nothing secret in any span", { timeout: 180_000 }, async () => {
    const { application, sandboxKey } = await createTestApplication();
    const signingSecret = decryptSecret(application.signingSecretEncrypted);
    receiver = await startReceiver(signingSecret);
    // A webhook URL whose query holds a token, as some receivers want: it must not reach a span.
    const hookToken = "hooktoken0123456789abcdef";
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hook?token=${hookToken}` } });
    exporter.reset();

    // Connect in the sandbox: the session, then the simulated patient's sign-in and consent, run by the worker's
    // sandbox-simulation job that the simulate request enqueued.
    const created = await createSession(sandboxKey);
    expect((await simulate(sandboxKey, created.id, { scenario: "baseline-adult" })).status).toBe(200);
    await waitFor(async () => (await getSession(sandboxKey, created.id)).status === "completed", "the simulation completing", 60_000);
    const session = await getSession(sandboxKey, created.id);
    const subject = session.subject as string;
    const readLabs = () => callApi(`/api/v1/users/${subject}/records/labs`, { headers: bearer(sandboxKey) as Record<string, string>, address: "198.51.100.77" });
    let read = await readLabs();
    await waitFor(async () => ((read = await readLabs()).body as { data?: unknown[] }).data?.length !== 0, "the imported labs", 60_000);
    expect(read.status).toBe(200);
    const records = (read.body as { data: { display?: string; code?: { display?: string } }[] }).data;
    expect(records.length).toBeGreaterThan(0);
    await waitFor(async () => (await db().webhookDelivery.count({ where: { applicationId: application.id, status: "succeeded" } })) >= 1, "a delivery", 60_000);
    // The attempt's span ends once its outcome is logged, just after the delivery row says so; the import's span ends
    // after its last page is stored, which can be after the first labs are readable.
    const finished = (name: string) => exporter.getFinishedSpans().some((span) => span.name === name);
    // The simulation job's span, likewise, ends after the session reads completed.
    const awaited = ["webhook.delivery", "source.import", "job sandbox-simulation"];
    await waitFor(async () => (await tracing.forceFlush(), awaited.every(finished)), `the spans ${awaited.join(", ")}`, 60_000);
    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.filter((span) => span.name === name);

    // A span per request, named by its declared operation, with its status.
    const readSpan = named("GET /users/{subject}/records/{category}")[0] ?? spans.find((span) => span.kind === SpanKind.SERVER && span.name.includes("/records/{category}"));
    expect(readSpan, spans.filter((span) => span.kind === SpanKind.SERVER).map((span) => span.name).join(", ")).toBeDefined();
    expect(readSpan!.attributes["http.response.status_code"]).toBe(200);
    expect(spans.filter((span) => span.kind === SpanKind.SERVER).map((span) => span.name)).toEqual(expect.arrayContaining(["POST /connect/sessions"]));
    // The read's statements are its children.
    const statements = spans.filter((span) => span.instrumentationScope.name.includes("instrumentation-pg"));
    expect(statements.some((span) => span.parentSpanContext?.spanId === readSpan!.spanContext().spanId || span.spanContext().traceId === readSpan!.spanContext().traceId)).toBe(true);
    // The import, with its pages as events, and the SMART client's requests to the health system beneath it.
    const imported = named("source.import")[0]!;
    expect(imported.attributes["chartkey.provider"]).toEqual(expect.any(String));
    expect(imported.events.filter((event) => event.name === "page").length).toBeGreaterThan(0);
    const outbound = spans.filter((span) => span.kind === SpanKind.CLIENT && span.spanContext().traceId === imported.spanContext().traceId && !span.instrumentationScope.name.includes("pg"));
    expect(outbound.length).toBeGreaterThan(0);
    // A webhook delivery attempt: a job span continuing the trace of the request whose event enqueued it, with the
    // outbound POST beneath it.
    // The simulation job continues the trace of the request that enqueued it (its traceparent in the job's data),
    // and the import runs beneath it.
    const simulateRequest = spans.find((span) => span.kind === SpanKind.SERVER && span.name.endsWith("/simulate"))!;
    const simulation = named("job sandbox-simulation")[0]!;
    expect(simulation.spanContext().traceId).toBe(simulateRequest.spanContext().traceId);
    expect(simulation.parentSpanContext?.spanId).toBe(simulateRequest.spanContext().spanId);
    expect(imported.spanContext().traceId).toBe(simulateRequest.spanContext().traceId);
    // A webhook delivery attempt, with the outbound POST beneath it.
    const delivery = named("webhook.delivery")[0]!;
    expect(delivery.attributes).toMatchObject({ "chartkey.webhook.attempt": 1, "chartkey.webhook.outcome": "succeeded" });
    expect(spans.some((span) => span.kind === SpanKind.CLIENT && span.parentSpanContext?.spanId === delivery.spanContext().spanId)).toBe(true);

    // Nothing secret: the key, the signing secret, the webhook URL's token, the source's tokens, the session's
    // patient link, the subject's records.
    const source = await db().source.findFirstOrThrow({ where: { subjectId: subject } });
    const connect = await db().connectSession.findUniqueOrThrow({ where: { id: session.id } });
    const secrets = [sandboxKey, signingSecret, hookToken, decryptSecret(source.accessTokenEncrypted!), ...(source.refreshTokenEncrypted ? [decryptSecret(source.refreshTokenEncrypted)] : [])];
    const linkToken = (connect as Record<string, unknown>).linkTokenHash ? null : ((connect as Record<string, unknown>).linkToken as string | undefined);
    if (linkToken) secrets.push(linkToken);
    const exported = JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, resource: span.resource.attributes })));
    for (const secret of secrets) expect(exported).not.toContain(secret);
    for (const record of records) {
      const text = JSON.stringify(record);
      for (const value of text.match(/"(display|value|text)":"([^"]{6,})"/g) ?? []) expect(exported).not.toContain(value.split('":"')[1]!.slice(0, -1));
    }
    // The raw instrumentations did record URLs; the export keeps none.
    expect(exported).not.toContain("url.full");
    expect(exported).not.toContain("http.url");
  });

  it("a log line inside a span carries its trace id and span id; outside one, none", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ mixin: traceLogFields }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    await inSpan("test.span", {}, async () => logger.info("inside"));
    logger.info("outside");
    const traced = exporter.getFinishedSpans().find((span) => span.name === "test.span")!;
    expect(lines[0]).toMatchObject({ msg: "inside", trace_id: traced.spanContext().traceId, span_id: traced.spanContext().spanId });
    expect(lines[1]).not.toHaveProperty("trace_id");
    // The platform's logger has the same mixin.
    expect((log as unknown as Record<symbol, unknown>)[pino.symbols.mixinSym]).toBe(traceLogFields);
  });

  it("redacts at export: only kept attributes, and instrumentation span names without paths", () => {
    const span = exporter.getFinishedSpans().find((candidate) => candidate.instrumentationScope.name.includes("http") || candidate.instrumentationScope.name.includes("undici"));
    expect(span).toBeDefined();
    const fake = Object.create(span!, { name: { value: "GET /receipts/secret-token" }, attributes: { value: { "url.full": "https://x.test/?code=abc", "http.request.method": "GET" } } });
    const redacted = redactedSpan(fake);
    expect(redacted.name).toBe("GET");
    expect(redacted.attributes).toEqual({ "http.request.method": "GET" });
  });
});
