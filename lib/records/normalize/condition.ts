import { CODE_SYSTEMS, codeable, codeables, firstCode } from "./codes";
import { conceptKey, instantKey, timeKey } from "./fact-key";
import type { Json } from "./read";
import { clinicalTime, dateTime } from "./times";
import type { DraftOutcome } from "./types";

const CONDITION_SYSTEMS = [CODE_SYSTEMS.snomed, CODE_SYSTEMS.icd10cm, CODE_SYSTEMS.icd10];

export function normalizeCondition(condition: Json): DraftOutcome {
  const conditionCode = codeable(condition.code);
  if (!conditionCode) return { skipReason: "Condition has no code" };
  const clinicalStatus = firstCode(condition.clinicalStatus);
  const onset = clinicalTime(condition, "onset");
  const recordedDate = dateTime(condition.recordedDate);
  return {
    keyParts: [conceptKey(conditionCode, CONDITION_SYSTEMS), timeKey(onset) ?? instantKey(recordedDate)],
    data: {
      category: "conditions",
      status: clinicalStatus,
      code: conditionCode,
      clinicalStatus,
      verificationStatus: firstCode(condition.verificationStatus),
      categories: codeables(condition.category),
      severity: codeable(condition.severity),
      onset,
      abatement: clinicalTime(condition, "abatement"),
      recordedDate,
    },
  };
}
