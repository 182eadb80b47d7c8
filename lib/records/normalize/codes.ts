import type { Codeable, Coding, Money, Quantity } from "../schemas";
import { code, number, object, objects, string } from "./read";

export const CODE_SYSTEMS = {
  loinc: "http://loinc.org",
  snomed: "http://snomed.info/sct",
  rxnorm: "http://www.nlm.nih.gov/research/umls/rxnorm",
  cvx: "http://hl7.org/fhir/sid/cvx",
  icd10cm: "http://hl7.org/fhir/sid/icd-10-cm",
  icd10: "http://hl7.org/fhir/sid/icd-10",
  cpt: "http://www.ama-assn.org/go/cpt",
  hcpcs: "https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets",
  ndc: "http://hl7.org/fhir/sid/ndc",
  dataAbsentReason: "http://terminology.hl7.org/CodeSystem/data-absent-reason",
} as const;

export function coding(value: unknown): Coding | null {
  const raw = object(value);
  const codeValue = string(raw?.code);
  if (!raw || !codeValue) return null;
  return { system: string(raw.system), code: codeValue, display: string(raw.display) };
}

export function codings(value: unknown): Coding[] {
  return objects(value).flatMap((item) => coding(item) ?? []);
}

/** A CodeableConcept; null when it carries neither a code nor any text. */
export function codeable(value: unknown): Codeable | null {
  const raw = object(value);
  if (!raw) return null;
  const rawCodings = objects(raw.coding);
  const text = string(raw.text) ?? rawCodings.map((item) => string(item.display)).find((display) => display !== null) ?? null;
  const kept = codings(raw.coding);
  return text === null && kept.length === 0 ? null : { text, codings: kept };
}

export function codeables(value: unknown): Codeable[] {
  return objects(value).flatMap((item) => codeable(item) ?? []);
}

/** Every coding of a list of concepts, for fields the record keeps as plain codings. */
export function flattenCodings(concepts: Codeable[]): Coding[] {
  return concepts.flatMap((concept) => concept.codings);
}

/**
 * The coding a fact is best known by: the first in the most preferred system, else the first real coding.
 * Data-absent-reason codings say that the code is unknown, so they never identify anything.
 */
export function preferredCoding(concept: Codeable | null, preferredSystems: readonly string[]): Coding | null {
  const usable = concept?.codings.filter((item) => item.system !== CODE_SYSTEMS.dataAbsentReason) ?? [];
  for (const system of preferredSystems) {
    const match = usable.find((item) => item.system === system);
    if (match) return match;
  }
  return usable[0] ?? null;
}

const COMPARATORS = ["<", "<=", ">=", ">"] as const;

export function quantity(value: unknown): Quantity | null {
  const raw = object(value);
  if (!raw) return null;
  const comparator = COMPARATORS.find((candidate) => candidate === raw.comparator) ?? null;
  const result = {
    value: number(raw.value),
    comparator,
    unit: string(raw.unit),
    system: string(raw.system),
    code: string(raw.code),
  };
  return result.value === null && result.unit === null && result.code === null ? null : result;
}

export function money(value: unknown): Money | null {
  const raw = object(value);
  if (!raw) return null;
  const result = { value: number(raw.value), currency: string(raw.currency) };
  return result.value === null ? null : result;
}

/** The code of a concept's first coding, lowercased: how FHIR status concepts (clinicalStatus, ...) are read. */
export function firstCode(value: unknown): string | null {
  return code(codings(object(value)?.coding)[0]?.code);
}
