import { conceptKey, instantKey, timeKey } from "./fact-key";
import { dosage } from "./dosage";
import { MEDICATION_SYSTEMS, medicationConcept } from "./medication-concept";
import type { RecordData } from "../schemas";
import { quantity } from "./codes";
import { code, integer, object, objects, type Json } from "./read";
import { reasonConcepts } from "./reasons";
import { referenceDisplay } from "./references";
import { clinicalTime, dateTime, period } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

export function normalizeMedicationRequest(request: Json, context: NormalizeContext): DraftOutcome {
  const medication = medicationConcept(request, context);
  if (!medication) return { skipReason: "MedicationRequest names no medication" };
  const authoredOn = dateTime(request.authoredOn);
  return {
    keyParts: ["request", conceptKey(medication, MEDICATION_SYSTEMS), instantKey(authoredOn)],
    data: {
      category: "medications",
      kind: "request",
      status: code(request.status),
      code: medication,
      intent: code(request.intent),
      authoredOn,
      effective: null,
      dosages: objects(request.dosageInstruction).map(dosage),
      requester: referenceDisplay(request.requester, request, context.resolve),
      reasonCodes: reasonConcepts(request, context.resolve),
      dispenseRequest: dispenseRequest(request.dispenseRequest),
      quantity: null,
      daysSupply: null,
    },
  };
}

export function normalizeMedicationStatement(statement: Json, context: NormalizeContext): DraftOutcome {
  const medication = medicationConcept(statement, context);
  if (!medication) return { skipReason: "MedicationStatement names no medication" };
  const asserted = dateTime(statement.dateAsserted);
  const effective = clinicalTime(statement, "effective");
  return {
    keyParts: ["statement", conceptKey(medication, MEDICATION_SYSTEMS), instantKey(asserted), timeKey(effective)],
    data: {
      category: "medications",
      kind: "statement",
      status: code(statement.status),
      code: medication,
      intent: null,
      authoredOn: asserted,
      effective,
      dosages: objects(statement.dosage).map(dosage),
      requester: null,
      reasonCodes: reasonConcepts(statement, context.resolve),
      dispenseRequest: null,
      quantity: null,
      daysSupply: null,
    },
  };
}

function dispenseRequest(value: unknown): RecordData<"medications">["dispenseRequest"] {
  const raw = object(value);
  if (!raw) return null;
  const request = {
    quantity: quantity(raw.quantity),
    refillsAllowed: integer(raw.numberOfRepeatsAllowed),
    validityPeriod: period(raw.validityPeriod),
    expectedSupplyDuration: quantity(raw.expectedSupplyDuration),
  };
  return Object.values(request).every((part) => part === null) ? null : request;
}
