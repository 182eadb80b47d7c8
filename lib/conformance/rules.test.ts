import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_ALLOWANCE_MS, PHASES, WATCH_MS } from "./limits";
import { startConformanceRunOperation } from "./operations";
import { CHECK_RULES, PHASE_RULES } from "./rules";

const doc = readFileSync(path.join(import.meta.dirname, "../../docs/conformance.md"), "utf8");

describe("the rules a run follows are stated before it starts, in the same words everywhere", () => {
  it("every phase, in order, with how it ends", () => {
    expect(PHASE_RULES.map((rule) => rule.phase)).toEqual([...PHASES]);
  });

  it("every check the graders produce has its rule, naming the allowance and the window where they apply", () => {
    expect(CHECK_RULES.map((rule) => rule.id)).toEqual(["connect_session", "retry_after", "change_feed", "stops_on_revocation", "webhook_valid", "webhook_corrupted", "webhook_redelivery"]);
    const revocation = CHECK_RULES.find((rule) => rule.id === "stops_on_revocation")!.rule;
    expect(revocation).toContain(`${IN_FLIGHT_ALLOWANCE_MS / 1000} s or more after`);
    expect(revocation).toContain(`${WATCH_MS / 1000} s after the signal and until the run ends`);
    expect(CHECK_RULES.find((rule) => rule.id === "webhook_redelivery")!.rule).toContain("same webhook-id");
  });

  it("docs/conformance.md and the OpenAPI description of POST /conformance/runs carry each rule word for word", () => {
    const description = startConformanceRunOperation.description ?? "";
    for (const rule of PHASE_RULES) {
      expect(doc).toContain(rule.does);
      expect(doc).toContain(rule.ends);
      expect(description).toContain(rule.ends);
    }
    for (const rule of CHECK_RULES) {
      expect(doc).toContain(rule.rule);
      expect(description).toContain(rule.rule);
    }
  });
});
