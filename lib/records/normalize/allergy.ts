import { CODE_SYSTEMS, codeable, codeables, firstCode } from "./codes";
import { conceptKey, instantKey, timeKey } from "./fact-key";
import { code, objects, string, strings, type Json } from "./read";
import { clinicalTime, dateTime } from "./times";
import type { DraftOutcome } from "./types";

const ALLERGY_SYSTEMS = [CODE_SYSTEMS.snomed, CODE_SYSTEMS.rxnorm];

export function normalizeAllergy(allergy: Json): DraftOutcome {
  const substance = codeable(allergy.code);
  if (!substance) return { skipReason: "AllergyIntolerance has no code" };
  const clinicalStatus = firstCode(allergy.clinicalStatus);
  const onset = clinicalTime(allergy, "onset");
  const recordedDate = dateTime(allergy.recordedDate);
  return {
    keyParts: [conceptKey(substance, ALLERGY_SYSTEMS), timeKey(onset) ?? instantKey(recordedDate)],
    data: {
      category: "allergies",
      status: clinicalStatus,
      code: substance,
      clinicalStatus,
      verificationStatus: firstCode(allergy.verificationStatus),
      type: code(allergy.type),
      categories: strings(allergy.category).map((category) => category.toLowerCase()),
      criticality: code(allergy.criticality),
      onset,
      recordedDate,
      lastOccurrence: dateTime(allergy.lastOccurrence),
      reactions: objects(allergy.reaction).map((reaction) => ({
        substance: codeable(reaction.substance),
        manifestations: codeables(reaction.manifestation),
        severity: code(reaction.severity),
        onset: dateTime(reaction.onset),
        description: string(reaction.description),
      })),
    },
  };
}
