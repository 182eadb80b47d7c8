// eslint-disable-next-line no-restricted-imports -- the in-memory tracing must load before anything loads pg, and is no part of the tracing domain's index
import { exporter, tracing } from "@/lib/tracing/test-tracing";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createTestApplication } from "@/test/factories";
import { endPhase } from "./transitions";

afterAll(async () => {
  await tracing.shutdown();
});

describe("a conformance phase's span", () => {
  it("is recorded when the phase ends, from the phase's start to its end, named and bounded, once", async () => {
    const { application } = await createTestApplication();
    const phaseStartedAt = new Date(Date.now() - 5_000);
    const run = await db().conformanceRun.create({
      data: { id: newId("run_"), applicationId: application.id, scenario: "baseline-adult", syncMode: "one_time", status: "open", phase: "session", phaseStartedAt, expiresAt: new Date(Date.now() + 3_600_000) },
    });
    exporter.reset();

    expect(await endPhase(run.id, "session", "advanced")).not.toBeNull();
    // The phase is over: ending it again changes nothing and records no second span.
    expect(await endPhase(run.id, "session", "advanced")).toBeNull();

    await tracing.forceFlush();
    const spans = exporter.getFinishedSpans().filter((span) => span.name === "conformance.phase");
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toEqual({ "chartkey.conformance.phase": "session", "chartkey.conformance.ended_by": "advanced" });
    const startMs = spans[0]!.startTime[0] * 1000 + spans[0]!.startTime[1] / 1e6;
    expect(Math.abs(startMs - phaseStartedAt.getTime())).toBeLessThan(2);
    const durationMs = spans[0]!.duration[0] * 1000 + spans[0]!.duration[1] / 1e6;
    expect(durationMs).toBeGreaterThanOrEqual(4_900);
  });
});
