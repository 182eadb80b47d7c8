import { describe, expect, it } from "vitest";
import { enrolmentReason, mustGiveSecondFactor, STEP_UP_MINUTES, stepUpFresh } from "./rules";

describe("who must enrol a second factor", () => {
  it("operators and production members must; everyone when the deployment says so; no one else", () => {
    expect(enrolmentReason({ requiredForAll: false, operator: true, productionMember: false })).toBe("operator");
    expect(enrolmentReason({ requiredForAll: false, operator: false, productionMember: true })).toBe("production");
    expect(enrolmentReason({ requiredForAll: true, operator: false, productionMember: false })).toBe("deployment");
    expect(enrolmentReason({ requiredForAll: false, operator: false, productionMember: false })).toBeNull();
  });

  it("an enrolled account gives its factor even where not required", () => {
    expect(mustGiveSecondFactor({ enrolled: true, reason: null })).toBe(true);
    expect(mustGiveSecondFactor({ enrolled: false, reason: "production" })).toBe(true);
    expect(mustGiveSecondFactor({ enrolled: false, reason: null })).toBe(false);
  });
});

describe("step-up freshness", () => {
  const now = new Date("2026-12-07T02:00:00Z");
  it(`counts a factor given within ${STEP_UP_MINUTES} minutes, not one older or never given`, () => {
    expect(STEP_UP_MINUTES).toBe(5);
    expect(stepUpFresh(new Date(now.getTime() - 30_000), now)).toBe(true);
    expect(stepUpFresh(new Date(now.getTime() - STEP_UP_MINUTES * 60_000), now)).toBe(true);
    expect(stepUpFresh(new Date(now.getTime() - STEP_UP_MINUTES * 60_000 - 1), now)).toBe(false);
    expect(stepUpFresh(null, now)).toBe(false);
  });

  it("a time far in the future (a wrong clock) does not count", () => {
    expect(stepUpFresh(new Date(now.getTime() + 30_000), now)).toBe(true);
    expect(stepUpFresh(new Date(now.getTime() + 10 * 60_000), now)).toBe(false);
  });
});
