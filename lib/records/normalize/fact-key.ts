import type { ClinicalTime, Codeable, ObservationComponent, ObservationValue, Quantity } from "../schemas";
import { CODE_SYSTEMS, preferredCoding } from "./codes";

/** One piece of a fact's identifying content; null (an absent field) is written as an empty part. */
export type KeyPart = string | number | null;

const SYSTEM_NAMES = new Map<string, string>(Object.entries(CODE_SYSTEMS).map(([name, system]) => [system, name]));

/**
 * Joins key parts into a readable key such as `loinc:2339-0|2020-01-01T10:00:00.000Z|97 mg/dL`. Separators inside
 * a part are escaped, so distinct part lists never produce the same key (the readers never yield blank strings, so
 * an empty part always means absent).
 */
export function factKey(parts: KeyPart[]): string {
  return parts.map((part) => (part === null ? "" : String(part).replace(/[\\|]/g, (char) => `\\${char}`))).join("|");
}

/**
 * A time as it identifies a fact: instants are compared in UTC, so two sources that report the same moment with
 * different offsets or fractional-second precision agree. Partial dates stay as they are.
 */
export function instantKey(value: string | null): string | null {
  if (value === null || !value.includes("T")) return value;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? value : new Date(millis).toISOString();
}

/** The concept's preferred coding as `system:code` (known systems by short name), else its lowercased text. */
export function conceptKey(concept: Codeable | null, preferredSystems: readonly string[]): string | null {
  const coding = preferredCoding(concept, preferredSystems);
  if (coding) return `${(coding.system && SYSTEM_NAMES.get(coding.system)) ?? coding.system ?? ""}:${coding.code}`;
  return concept?.text?.trim().toLowerCase() ?? null;
}

export function quantityKey(quantity: Quantity | null): string | null {
  if (!quantity) return null;
  return `${quantity.comparator ?? ""}${quantity.value ?? ""} ${quantity.code ?? quantity.unit ?? ""}`.trim();
}

export function timeKey(time: ClinicalTime | null): string | null {
  switch (time?.type) {
    case undefined:
      return null;
    case "dateTime":
      return instantKey(time.value);
    case "period":
      return `${instantKey(time.start) ?? ""}/${instantKey(time.end) ?? ""}`;
    case "age":
      return `age ${quantityKey(time.value)}`;
    case "range":
      return `age ${quantityKey(time.low) ?? ""}/${quantityKey(time.high) ?? ""}`;
    case "text":
      return time.value.trim().toLowerCase();
  }
}

export function observationValueKey(value: ObservationValue | null): string | null {
  switch (value?.type) {
    case undefined:
      return null;
    case "quantity":
      return quantityKey(value);
    case "codeable":
      return conceptKey(value, [CODE_SYSTEMS.snomed, CODE_SYSTEMS.loinc]);
    case "dateTime":
      return instantKey(value.value);
    case "string":
    case "boolean":
    case "integer":
    case "time":
      return `${value.type} ${value.value}`;
    case "range":
      return `${quantityKey(value.low) ?? ""}/${quantityKey(value.high) ?? ""}`;
    case "ratio":
      return `${quantityKey(value.numerator) ?? ""}:${quantityKey(value.denominator) ?? ""}`;
    case "period":
      return `${instantKey(value.start) ?? ""}/${instantKey(value.end) ?? ""}`;
  }
}

/** Components keyed independently of their order, e.g. `loinc:8462-4=80 mm[Hg]` for a diastolic reading. */
export function componentsKey(components: ObservationComponent[]): string | null {
  if (components.length === 0) return null;
  return components
    .map((component) => `${conceptKey(component.code, [CODE_SYSTEMS.loinc])}=${observationValueKey(component.value) ?? ""}`)
    .sort()
    .join(",");
}
