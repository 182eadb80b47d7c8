import type { Codeable, RecordData } from "../schemas";
import { CODE_SYSTEMS, codeable, quantity } from "./codes";
import { conceptKey, instantKey, timeKey } from "./fact-key";
import { boolean, code, number, object, objects, string, type Json } from "./read";
import { reasonConcepts } from "./reasons";
import { referenceDisplay } from "./references";
import { clinicalTime, dateTime } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

type Medication = RecordData<"medications">;

const MEDICATION_SYSTEMS = [CODE_SYSTEMS.rxnorm, CODE_SYSTEMS.ndc, CODE_SYSTEMS.snomed];

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
    },
  };
}

/** medicationCodeableConcept, else the code of the referenced (contained or bundled) Medication, else the display. */
function medicationConcept(resource: Json, context: NormalizeContext): Codeable | null {
  const inline = codeable(resource.medicationCodeableConcept);
  if (inline) return inline;
  const referenced = context.resolve(resource.medicationReference, resource);
  const fromMedication = referenced?.resourceType === "Medication" ? codeable(referenced.code) : null;
  if (fromMedication) return fromMedication;
  const display = string(object(resource.medicationReference)?.display);
  return display === null ? null : { text: display, codings: [] };
}

function dosage(raw: Json): Medication["dosages"][number] {
  const doseAndRate = objects(raw.doseAndRate)[0];
  const repeat = object(object(raw.timing)?.repeat);
  const frequency = {
    timesPerPeriod: number(repeat?.frequency),
    period: number(repeat?.period),
    periodUnit: string(repeat?.periodUnit),
  };
  const hasFrequency = frequency.timesPerPeriod !== null || frequency.period !== null || frequency.periodUnit !== null;
  return {
    text: string(raw.text),
    asNeeded: boolean(raw.asNeededBoolean) ?? (codeable(raw.asNeededCodeableConcept) ? true : null),
    route: codeable(raw.route),
    dose: quantity(doseAndRate?.doseQuantity),
    frequency: hasFrequency ? frequency : null,
  };
}
