import { CODE_SYSTEMS, codeable, codeables } from "./codes";
import { conceptKey, timeKey } from "./fact-key";
import { code, type Json } from "./read";
import { reasonConcepts } from "./reasons";
import { clinicalTime } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

const PROCEDURE_SYSTEMS = [CODE_SYSTEMS.snomed, CODE_SYSTEMS.cpt, CODE_SYSTEMS.hcpcs];

export function normalizeProcedure(procedure: Json, context: NormalizeContext): DraftOutcome {
  const procedureCode = codeable(procedure.code);
  if (!procedureCode) return { skipReason: "Procedure has no code" };
  const performed = clinicalTime(procedure, "performed");
  return {
    keyParts: [conceptKey(procedureCode, PROCEDURE_SYSTEMS), timeKey(performed)],
    data: {
      category: "procedures",
      status: code(procedure.status),
      code: procedureCode,
      performed,
      bodySites: codeables(procedure.bodySite),
      reasonCodes: reasonConcepts(procedure, context.resolve),
    },
  };
}
