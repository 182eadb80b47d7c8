import { CODE_SYSTEMS, codeable, codeables, quantity } from "./codes";
import { conceptKey, timeKey } from "./fact-key";
import { boolean, code, integer, objects, string, type Json } from "./read";
import { clinicalTime, dateTime } from "./times";
import type { DraftOutcome } from "./types";

export function normalizeImmunization(immunization: Json): DraftOutcome {
  const vaccine = codeable(immunization.vaccineCode);
  if (!vaccine) return { skipReason: "Immunization has no vaccineCode" };
  const occurrence = clinicalTime(immunization, "occurrence");
  return {
    keyParts: [conceptKey(vaccine, [CODE_SYSTEMS.cvx]), timeKey(occurrence)],
    data: {
      category: "immunizations",
      status: code(immunization.status),
      code: vaccine,
      statusReason: codeable(immunization.statusReason),
      occurrence,
      recorded: dateTime(immunization.recorded),
      primarySource: boolean(immunization.primarySource),
      lotNumber: string(immunization.lotNumber),
      site: codeable(immunization.site),
      route: codeable(immunization.route),
      dose: quantity(immunization.doseQuantity),
      protocolApplied: objects(immunization.protocolApplied).map((protocol) => ({
        series: string(protocol.series),
        doseNumber: positiveIntOrString(protocol, "doseNumber"),
        seriesDoses: positiveIntOrString(protocol, "seriesDoses"),
        targetDiseases: codeables(protocol.targetDisease),
      })),
    },
  };
}

/** An R4 choice of positiveInt or string (doseNumber[x], seriesDoses[x]), kept as text so "booster" survives. */
function positiveIntOrString(protocol: Json, prefix: string): string | null {
  const count = integer(protocol[`${prefix}PositiveInt`]);
  return count === null ? string(protocol[`${prefix}String`]) : String(count);
}
