import { ApiError, HEADER } from "@/lib/http";
import type { Category } from "@/lib/records";
import type { Scenario } from "@/lib/sandbox";
import { demoPath } from "./links";

/** docs/contract.md, Limits: the rate-limited scenario answers 429 in alternating 2-second slots. */
export const RATE_LIMIT_SLOT_MS = 2000;

/** Slots are counted from the Unix epoch; even slots are limited, odd slots answer normally. */
export function inLimitedSlot(now: number): boolean {
  return Math.floor(now / RATE_LIMIT_SLOT_MS) % 2 === 0;
}

/**
 * The error a behavior scenario simulates on the record routes, if any, for a read of `requested` at `now`.
 * source-unavailable is not an error: it answers 200 with a partial sync (see demo-sources.ts).
 */
export function enforceScenarioBehavior(scenario: Scenario, requested: readonly Category[], now: number): void {
  switch (scenario.behavior) {
    case "rate_limited": {
      if (!inLimitedSlot(now)) return;
      const untilNextSlot = RATE_LIMIT_SLOT_MS - (now % RATE_LIMIT_SLOT_MS);
      throw new ApiError("rate_limited", "Simulated rate limit: this scenario answers 429 in every other 2-second slot.", {
        headers: { [HEADER.retryAfter]: String(Math.ceil(untilNextSlot / 1000)) },
      });
    }
    case "consent_revoked":
      throw new ApiError("consent_inactive", "The patient revoked consent: stop reading this subject and delete its records.");
    case "consent_partial": {
      const outside = requested.filter((category) => !scenario.consentCategories.includes(category));
      if (outside.length === 0) return;
      throw new ApiError(
        "consent_scope_exceeded",
        `The consent receipt covers only ${scenario.consentCategories.join(", ")}; not ${outside.join(", ")}. ` +
          `See ${demoPath("scenarios", scenario.id)}.`,
      );
    }
    case "source_unavailable":
    case null:
      return;
  }
}
