import type { Money, RecordData } from "../schemas";
import { CODE_SYSTEMS, codeable, money, quantity } from "./codes";
import { conceptKey, instantKey } from "./fact-key";
import { identifiers } from "./identifiers";
import { observationValue } from "./observation";
import { code, integer, object, objects, type Json } from "./read";
import { referencedConcept } from "./reasons";
import { referenceDisplay } from "./references";
import { clinicalTime, dateTime, period } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

type Claim = RecordData<"claims">;

/** Claims and ExplanationOfBenefits share their shape; a payer's adjudication adds outcome, totals and payment. */
export function normalizeClaim(claim: Json, context: NormalizeContext): DraftOutcome {
  const kind = claim.resourceType === "Claim" ? "claim" : "explanationOfBenefit";
  const claimType = codeable(claim.type);
  if (!claimType) return { skipReason: `${String(claim.resourceType)} has no type` };
  const billablePeriod = period(claim.billablePeriod);
  const created = dateTime(claim.created);
  const items = objects(claim.item).map((item) => claimItem(item));
  const resolve = context.resolve;
  const totals = claimTotals(claim);
  return {
    keyParts: [
      kind,
      conceptKey(claimType, []),
      instantKey(billablePeriod?.start ?? null),
      instantKey(created),
      items.map((item) => conceptKey(item.service, []) ?? "").join(","),
      totals.map((total) => `${conceptKey(total.category, []) ?? ""}=${moneyKey(total.amount)}`).join(","),
      prescribedMedicationKey(claim, context),
    ],
    data: {
      category: "claims",
      kind,
      status: code(claim.status),
      code: claimType,
      use: code(claim.use),
      outcome: code(claim.outcome),
      identifiers: identifiers(claim.identifier),
      billablePeriod,
      created,
      insurer: referenceDisplay(claim.insurer, claim, context.resolve),
      provider: referenceDisplay(claim.provider, claim, context.resolve),
      totals,
      payment: money(object(claim.payment)?.amount),
      diagnoses: objects(claim.diagnosis).flatMap(
        (diagnosis) =>
          codeable(diagnosis.diagnosisCodeableConcept) ??
          referencedConcept(diagnosis.diagnosisReference, claim, context.resolve) ??
          [],
      ),
      items,
      supportingInfo: objects(claim.supportingInfo).map((info) => ({
        sequence: integer(info.sequence),
        category: codeable(info.category),
        code: codeable(info.code),
        timing: clinicalTime(info, "timing"),
        value: observationValue(info),
        reason: codeable(info.reason),
      })),
      careTeam: objects(claim.careTeam).map((member) => ({
        sequence: integer(member.sequence),
        provider: referenceDisplay(member.provider, claim, resolve),
        role: codeable(member.role),
        qualification: codeable(member.qualification),
      })),
      coverage: null,
    },
  };
}

/** Pharmacy claims of one visit differ only by the prescription they bill, so its medication tells them apart. */
function prescribedMedicationKey(claim: Json, context: NormalizeContext): string | null {
  const prescription = context.resolve(claim.prescription, claim);
  return conceptKey(codeable(prescription?.medicationCodeableConcept), [CODE_SYSTEMS.rxnorm]);
}

function moneyKey(amount: Money): string {
  return `${amount.value ?? ""} ${amount.currency ?? ""}`.trim();
}

/** Claim.total is one amount; ExplanationOfBenefit.total is a list of amounts by adjudication category. */
function claimTotals(claim: Json): Claim["totals"] {
  const single = money(claim.total);
  if (single) return [{ category: null, amount: single }];
  return objects(claim.total).flatMap((total) => {
    const amount = money(total.amount);
    return amount ? [{ category: codeable(total.category), amount }] : [];
  });
}

function claimItem(item: Json): Claim["items"][number] {
  return {
    sequence: integer(item.sequence),
    service: codeable(item.productOrService),
    serviced: clinicalTime(item, "serviced"),
    revenue: codeable(item.revenue),
    quantity: quantity(item.quantity),
    unitPrice: money(item.unitPrice),
    net: money(item.net),
    adjudications: objects(item.adjudication).map((adjudication) => ({
      category: codeable(adjudication.category),
      amount: money(adjudication.amount),
    })),
  };
}
