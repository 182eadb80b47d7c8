import { FHIR_DATE_PATTERN, FHIR_DATE_TIME_PATTERN, type ClinicalTime, type Period } from "../schemas";
import { quantity } from "./codes";
import { object, string, type Json } from "./read";

/** A FHIR dateTime or instant, unchanged (offset and precision as sent); null when absent or malformed. */
export function dateTime(value: unknown): string | null {
  const text = string(value);
  return text !== null && FHIR_DATE_TIME_PATTERN.test(text) ? text : null;
}

/** A FHIR date; a full dateTime sent where a date belongs is cut to its date as written (no zone conversion). */
export function date(value: unknown): string | null {
  const text = dateTime(value)?.slice(0, 10) ?? null;
  return text !== null && FHIR_DATE_PATTERN.test(text) ? text : null;
}

export function period(value: unknown): Period | null {
  const raw = object(value);
  const start = dateTime(raw?.start);
  const end = dateTime(raw?.end);
  return start === null && end === null ? null : { start, end };
}

/** A FHIR choice-type time such as onset[x] or effective[x], read from `${prefix}DateTime`, `${prefix}Period`, .... */
export function clinicalTime(resource: Json, prefix: string): ClinicalTime | null {
  const pointInTime = dateTime(resource[`${prefix}DateTime`] ?? resource[`${prefix}Instant`] ?? resource[`${prefix}Date`]);
  if (pointInTime !== null) return { type: "dateTime", value: pointInTime };

  const span = period(resource[`${prefix}Period`]);
  if (span) return { type: "period", ...span };

  const age = quantity(resource[`${prefix}Age`]);
  if (age) return { type: "age", value: age };

  const range = object(resource[`${prefix}Range`]);
  const low = quantity(range?.low);
  const high = quantity(range?.high);
  if (low || high) return { type: "range", low, high };

  const text = string(resource[`${prefix}String`]);
  return text === null ? null : { type: "text", value: text };
}
