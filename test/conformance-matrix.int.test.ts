// The conformance verdicts, proven by repetition: the reference integration (examples/conformance-reference) in
// each of its modes, in both sync modes, polling beside its webhooks. The good mode passes every run, and each broken
// mode fails exactly the one check its mistake breaks, every run.
// Size: 34 runs by default, 76 with CHARTKEY_TEST_FULL=1. By default the good mode runs once at each of the eight
// settings (both sync modes, polling at 0.2, 1, 3 and 10 s) and each broken mode at the two ends of that range
// (0.2 and 10 s), in both sync modes. That suffices because a broken mode's mistake does not depend on the interval
// between the two ends (its check reads what the integration did, not when), while the good mode, whose passing does
// depend on the timing (a poll landing in a window), meets every interval; and every run of the suite repeats the
// whole matrix. The full size runs the good mode 3 times per setting and every broken mode at every interval.
import { describe, expect, it } from "vitest";
import {
  AcceptsStaleTimestamp,
  IgnoresRetryAfter,
  ReadsAfterRevocation,
  RejectsEveryWebhook,
  RejectsRedelivery,
  RejectsUnknownEvents,
  RereadsWholeCategory,
} from "@/examples/conformance-reference/broken";
import { ReferenceIntegration } from "@/examples/conformance-reference/integration";
import { failedChecks, runAgainst, serveConformanceRuns, type Run, type Variant } from "@/test/conformance-runs";

const FULL = process.env.CHARTKEY_TEST_FULL === "1";
const POLL_INTERVALS_MS = [200, 1_000, 3_000, 10_000];
/** The intervals each broken mode runs at: the range's two ends, or all of it. */
const BROKEN_POLL_INTERVALS_MS = FULL ? POLL_INTERVALS_MS : [200, 10_000];
const SYNC_MODES = ["one-time", "continuous"] as const;
/** Good runs per setting: 1 x 8 settings = 8 consecutive passes (3 x 8 = 24 at the full size). */
const GOOD_RUNS_PER_SETTING = FULL ? 3 : 1;
/** Runs at once: each is mostly waiting on its windows; more would load the two cores past the 1 s in-flight allowance. */
const CONCURRENT_RUNS = 12;

type Case = { mode: string; Integration: Variant; syncMode: (typeof SYNC_MODES)[number]; pollIntervalMs: number; expectFailed: string[] };

const BROKEN: { Integration: Variant; fails: string; continuousOnly?: boolean }[] = [
  { Integration: IgnoresRetryAfter, fails: "retry_after" },
  { Integration: ReadsAfterRevocation, fails: "stops_on_revocation" },
  { Integration: AcceptsStaleTimestamp, fails: "webhook_corrupted" },
  { Integration: RejectsUnknownEvents, fails: "webhook_valid" },
  { Integration: RejectsEveryWebhook, fails: "webhook_valid" },
  { Integration: RejectsRedelivery, fails: "webhook_redelivery" },
  { Integration: RereadsWholeCategory, fails: "change_feed", continuousOnly: true },
];

/** CONFORMANCE_MATRIX_MODES=good,RereadsWholeCategory runs only those modes, for a quicker look at one. */
const ONLY = process.env.CONFORMANCE_MATRIX_MODES?.split(",");

const CASES: Case[] = SYNC_MODES.flatMap((syncMode) =>
  POLL_INTERVALS_MS.flatMap((pollIntervalMs) => [
    ...Array.from({ length: GOOD_RUNS_PER_SETTING }, () => ({ mode: "good", Integration: ReferenceIntegration, syncMode, pollIntervalMs, expectFailed: [] })),
    ...BROKEN.filter((broken) => (syncMode === "continuous" || !broken.continuousOnly) && BROKEN_POLL_INTERVALS_MS.includes(pollIntervalMs)).map((broken) => ({
      mode: broken.Integration.name,
      Integration: broken.Integration,
      syncMode,
      pollIntervalMs,
      expectFailed: [broken.fails],
    })),
  ]),
).filter((candidate) => !ONLY || ONLY.includes(candidate.mode));

// Enough run drivers for every run in flight at once (the deployment default serves 8 per worker process).
const origin = serveConformanceRuns({ runDrivers: CONCURRENT_RUNS / 2 });

/** Runs every case, CONCURRENT_RUNS at a time, and returns each with its run (or the error that stopped it). */
async function runAll(cases: readonly Case[]) {
  const results: { case: Case; run: Run | null; error: string | null; integrationErrors: string[] }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT_RUNS }, async () => {
      while (next < cases.length) {
        const current = cases[next++]!;
        try {
          const { run, integration } = await runAgainst(origin(), current.Integration, { syncMode: current.syncMode, pollIntervalMs: current.pollIntervalMs });
          results.push({ case: current, run, error: null, integrationErrors: integration.errors });
        } catch (error) {
          results.push({ case: current, run: null, error: (error as Error).message, integrationErrors: [] });
        }
      }
    }),
  );
  return results;
}

describe("conformance verdicts hold run after run", () => {
  it(`good mode passes ${CASES.filter((c) => c.mode === "good").length} runs; each broken mode fails exactly its check, in both sync modes, polling every ${BROKEN_POLL_INTERVALS_MS.map((ms) => ms / 1000).join(", ")} s`, async () => {
    const started = Date.now();
    const results = await runAll(CASES);
    const outcome = (result: (typeof results)[number]) => ({
      setting: `${result.case.mode} ${result.case.syncMode} poll ${result.case.pollIntervalMs} ms`,
      failed: result.run ? failedChecks(result.run) : null,
      verdict: result.run?.verdict ?? result.error,
      checks: result.run?.checks.filter((check) => check.status !== "passed").map((check) => `${check.id} ${check.status}: ${check.summary} ${JSON.stringify(check.evidence)}`),
      // What went wrong inside the integration (an error of its background work), when something did.
      integrationErrors: result.integrationErrors,
    });
    const wrong = results.filter((result) => {
      if (!result.run) return true;
      const failed = failedChecks(result.run);
      if (JSON.stringify(failed) !== JSON.stringify(result.case.expectFailed)) return true;
      // The good mode passes outright: every check passed, none inconclusive.
      return result.case.mode === "good" && result.run.verdict !== "passed";
    });
    console.log(`conformance matrix: ${results.length} runs in ${Math.round((Date.now() - started) / 1000)} s`);
    expect(wrong.map(outcome), JSON.stringify(wrong.map(outcome), null, 1)).toEqual([]);
    expect(results).toHaveLength(CASES.length);

    // Every failure says why and how to fix it.
    for (const result of results) {
      for (const failed of result.run!.checks.filter((check) => check.status === "failed")) expect(failed.fix).toEqual(expect.any(String));
    }
    const ofMode = (mode: string) => results.filter((result) => result.case.mode === mode).map((result) => result.run!);
    for (const run of ofMode("IgnoresRetryAfter")) expect((run.checks.find((check) => check.id === "retry_after")!.evidence.waitedMs as number[]).some((waited) => waited < 1000)).toBe(true);
    for (const run of ofMode("ReadsAfterRevocation")) expect(run.checks.find((check) => check.id === "stops_on_revocation")!.evidence.readsAfterSignal).toEqual(expect.any(Number));
    // A rejected valid webhook fails only webhook_valid: the revocation is then learnt by polling (404 or the receipt).
    for (const run of ofMode("RejectsEveryWebhook")) {
      expect(run.checks.find((check) => check.id === "stops_on_revocation")).toMatchObject({ status: "passed", evidence: { signalledBy: expect.stringMatching(/^(not_found|receipt)$/) } });
    }
  }, 1_800_000);
});
