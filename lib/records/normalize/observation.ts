import type { Codeable, ObservationValue, RecordData } from "../schemas";
import { CODE_SYSTEMS, codeable, codeables, flattenCodings, quantity } from "./codes";
import { componentsKey, conceptKey, observationValueKey, timeKey } from "./fact-key";
import { boolean, code, integer, object, objects, string, type Json } from "./read";
import { reportReference } from "./report-links";
import { clinicalTime, dateTime, period } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";
import { hasVitalSignsCode } from "./vital-signs";

type ObservationData = RecordData<"labs" | "vitals">;

/**
 * Which of the ten categories an Observation belongs to. A vital-signs code decides first, since the code says what
 * was measured whatever the source's category. Then vital-signs wins over laboratory when a source tags both (pulse
 * oximetry is sent that way), because the vital-signs profile is the more specific claim.
 */
function observationCategory(observed: Codeable | null, categoryCodes: string[]): "labs" | "vitals" | null {
  if (observed && hasVitalSignsCode(observed)) return "vitals";
  if (categoryCodes.includes("vital-signs")) return "vitals";
  if (categoryCodes.includes("laboratory")) return "labs";
  return null;
}

export function normalizeObservation(observation: Json, context: NormalizeContext): DraftOutcome {
  const categories = flattenCodings(codeables(observation.category));
  const categoryCodes = [...new Set(categories.map((item) => item.code.toLowerCase()))];
  const observed = codeable(observation.code);
  const category = observationCategory(observed, categoryCodes);
  if (category === null) {
    return {
      skipReason:
        categoryCodes.length === 0
          ? "Observation has no category"
          : `observation category ${categoryCodes.join(", ")} is not one of the ten categories`,
    };
  }
  if (!observed) return { skipReason: "Observation has no code" };

  const effective = clinicalTime(observation, "effective");
  const value = observationValue(observation);
  const report = context.reportOf(observation);
  const components = objects(observation.component).flatMap((component) => {
    const componentCode = codeable(component.code);
    if (!componentCode) return [];
    return [{ code: componentCode, value: observationValue(component), dataAbsentReason: codeable(component.dataAbsentReason) }];
  });
  const data: ObservationData = {
    category,
    status: code(observation.status),
    code: observed,
    categories,
    effective,
    issued: dateTime(observation.issued),
    value,
    dataAbsentReason: codeable(observation.dataAbsentReason),
    components,
    referenceRanges: referenceRanges(observation.referenceRange),
    interpretations: flattenCodings(codeables(observation.interpretation)),
    bodySite: codeable(observation.bodySite),
    specimen: specimenType(observation, context),
    notes: objects(observation.note).flatMap((annotation) => string(annotation.text) ?? []),
    report: reportReference(report),
  };
  return {
    keyParts: [
      conceptKey(observed, [CODE_SYSTEMS.loinc]),
      timeKey(effective),
      observationValueKey(value),
      componentsKey(components),
    ],
    data,
    ...(report ? { groupedBy: report } : {}),
  };
}

/** value[x] of an Observation, one of its components, or a claim's supportingInfo; SampledData and attachments are
 *  not carried. */
export function observationValue(holder: Json): ObservationValue | null {
  const measured = quantity(holder.valueQuantity);
  if (measured) return { type: "quantity", ...measured };
  const concept = codeable(holder.valueCodeableConcept);
  if (concept) return { type: "codeable", ...concept };
  const text = string(holder.valueString);
  if (text !== null) return { type: "string", value: text };
  const flag = boolean(holder.valueBoolean);
  if (flag !== null) return { type: "boolean", value: flag };
  const count = integer(holder.valueInteger);
  if (count !== null) return { type: "integer", value: count };
  const range = object(holder.valueRange);
  if (range) return { type: "range", low: quantity(range.low), high: quantity(range.high) };
  const ratio = object(holder.valueRatio);
  if (ratio) return { type: "ratio", numerator: quantity(ratio.numerator), denominator: quantity(ratio.denominator) };
  const moment = dateTime(holder.valueDateTime);
  if (moment !== null) return { type: "dateTime", value: moment };
  const timeOfDay = string(holder.valueTime);
  if (timeOfDay !== null) return { type: "time", value: timeOfDay };
  const span = period(holder.valuePeriod);
  return span ? { type: "period", ...span } : null;
}

function referenceRanges(value: unknown): ObservationData["referenceRanges"] {
  return objects(value).flatMap((raw) => {
    const range = { low: quantity(raw.low), high: quantity(raw.high), type: codeable(raw.type), text: string(raw.text) };
    return range.low ?? range.high ?? range.text ? [range] : [];
  });
}

/** The specimen's type when the Specimen is at hand, else what the reference's display says. */
function specimenType(observation: Json, context: NormalizeContext): ObservationData["specimen"] {
  const specimen = context.resolve(observation.specimen, observation);
  const display = string(object(observation.specimen)?.display);
  return codeable(specimen?.type) ?? (display === null ? null : { text: display, codings: [] });
}
