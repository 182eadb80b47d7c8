import type { RecordData } from "../schemas";
import { codeable, firstCode } from "./codes";
import { conceptKey, instantKey } from "./fact-key";
import { identifiers } from "./identifiers";
import { code, objects, string, type Json } from "./read";
import { referenceDisplay } from "./references";
import { period } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

type CoverageClass = NonNullable<RecordData<"claims">["coverage"]>["plan"];

/**
 * A Coverage is a claims record of kind `coverage`: it is what a claims analyst reads claims against (payer, plan,
 * member and group ids). The design names no category for coverage; claims is the one that already holds payers.
 */
export function normalizeCoverage(coverage: Json, context: NormalizeContext): DraftOutcome {
  const plan = coverageClass(coverage, "plan");
  const payer = objects(coverage.payor).flatMap((payor) => referenceDisplay(payor, coverage, context.resolve) ?? [])[0] ?? null;
  // type is optional; the plan, else the payer, still tells a reader which coverage this is.
  const label = plan?.name ?? plan?.value ?? payer;
  const coverageType = codeable(coverage.type) ?? (label === null ? null : { text: label, codings: [] });
  if (!coverageType) return { skipReason: "Coverage has no type, plan or payer" };
  const span = period(coverage.period);
  const ids = identifiers(coverage.identifier);
  const member = objects(coverage.identifier).find((identifier) => firstCode(identifier.type) === "mb");
  const subscriberId = string(coverage.subscriberId);
  const memberId = string(member?.value) ?? subscriberId;
  return {
    keyParts: ["coverage", conceptKey(coverageType, []), payer, memberId, plan?.value ?? null, instantKey(span?.start ?? null)],
    data: {
      category: "claims",
      kind: "coverage",
      status: code(coverage.status),
      code: coverageType,
      use: null,
      outcome: null,
      identifiers: ids,
      billablePeriod: null,
      created: null,
      insurer: payer,
      provider: null,
      totals: [],
      payment: null,
      diagnoses: [],
      items: [],
      supportingInfo: [],
      careTeam: [],
      coverage: {
        payer,
        plan,
        group: coverageClass(coverage, "group"),
        memberId,
        subscriberId,
        dependent: string(coverage.dependent),
        relationship: codeable(coverage.relationship),
        period: span,
        network: string(coverage.network),
      },
    },
  };
}

function coverageClass(coverage: Json, type: string): CoverageClass {
  const found = objects(coverage.class).find((item) => firstCode(item.type) === type);
  const value = string(found?.value);
  return value === null ? null : { value, name: string(found?.name) };
}
