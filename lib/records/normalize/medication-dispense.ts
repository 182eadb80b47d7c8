import { quantity } from "./codes";
import { dosage } from "./dosage";
import { conceptKey, instantKey } from "./fact-key";
import { MEDICATION_SYSTEMS, medicationConcept } from "./medication-concept";
import { code, objects, type Json } from "./read";
import { dateTime } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

/**
 * A pharmacy's record of medication supplied to the patient. The hand-over is what happened to the patient, so it
 * is the record's clinical time (`effective`) and, with the medication, what tells one fill from the next.
 */
export function normalizeMedicationDispense(dispense: Json, context: NormalizeContext): DraftOutcome {
  const medication = medicationConcept(dispense, context);
  if (!medication) return { skipReason: "MedicationDispense names no medication" };
  const handedOver = dateTime(dispense.whenHandedOver);
  return {
    keyParts: ["dispense", conceptKey(medication, MEDICATION_SYSTEMS), instantKey(handedOver)],
    data: {
      category: "medications",
      kind: "dispense",
      status: code(dispense.status),
      code: medication,
      intent: null,
      authoredOn: null,
      effective: handedOver === null ? null : { type: "dateTime", value: handedOver },
      dosages: objects(dispense.dosageInstruction).map(dosage),
      requester: null,
      reasonCodes: [],
      dispenseRequest: null,
      quantity: quantity(dispense.quantity),
      daysSupply: quantity(dispense.daysSupply),
    },
  };
}
