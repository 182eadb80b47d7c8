import type { Codeable } from "../schemas";
import { CODE_SYSTEMS } from "./codes";

/**
 * The LOINC codes of the FHIR R4 vital-signs profiles (hl7.org/fhir/R4/observation-vitalsigns.html), plus US Core's
 * pulse oximetry code 59408-5. An Observation coded this way is a vital sign whatever category its source gave it:
 * sources file pulse oximetry as laboratory, and C-CDA conversions often send no category at all.
 */
const VITAL_SIGNS_LOINC_CODES: ReadonlySet<string> = new Set([
  "85353-1", // vital signs panel
  "9279-1", // respiratory rate
  "8867-4", // heart rate
  "2708-6", // oxygen saturation in arterial blood
  "59408-5", // oxygen saturation by pulse oximetry (US Core)
  "8310-5", // body temperature
  "8302-2", // body height
  "9843-4", // head circumference
  "29463-7", // body weight
  "39156-5", // body mass index
  "85354-9", // blood pressure panel
  "8480-6", // systolic blood pressure
  "8462-4", // diastolic blood pressure
]);

export function hasVitalSignsCode(concept: Codeable): boolean {
  return concept.codings.some((item) => item.system === CODE_SYSTEMS.loinc && VITAL_SIGNS_LOINC_CODES.has(item.code.trim()));
}
