import type { Codeable } from "../schemas";
import { CODE_SYSTEMS, codeable } from "./codes";
import { object, string, type Json } from "./read";
import type { NormalizeContext } from "./types";

/** The code systems a medication is best known by, most telling first. */
export const MEDICATION_SYSTEMS = [CODE_SYSTEMS.rxnorm, CODE_SYSTEMS.ndc, CODE_SYSTEMS.snomed];

/** medicationCodeableConcept, else the code of the referenced (contained or bundled) Medication, else the display. */
export function medicationConcept(resource: Json, context: NormalizeContext): Codeable | null {
  const inline = codeable(resource.medicationCodeableConcept);
  if (inline) return inline;
  const referenced = context.resolve(resource.medicationReference, resource);
  const fromMedication = referenced?.resourceType === "Medication" ? codeable(referenced.code) : null;
  if (fromMedication) return fromMedication;
  const display = string(object(resource.medicationReference)?.display);
  return display === null ? null : { text: display, codings: [] };
}
