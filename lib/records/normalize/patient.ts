import type { RecordData } from "../schemas";
import { codeable, coding } from "./codes";
import { identifiers } from "./identifiers";
import { currentPersonName } from "./names";
import { boolean, code, object, objects, string, type Json } from "./read";
import { date, dateTime } from "./times";
import type { RecordDraft } from "./types";

type Demographics = RecordData<"demographics">;

const RACE_EXTENSION = "http://hl7.org/fhir/us/core/StructureDefinition/us-core-race";
const ETHNICITY_EXTENSION = "http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity";
const BIRTH_SEX_EXTENSION = "http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex";
// US Core 8 renamed us-core-sex (a code) to us-core-individual-sex (a Coding); sources send either.
const SEX_EXTENSIONS = [
  "http://hl7.org/fhir/us/core/StructureDefinition/us-core-individual-sex",
  "http://hl7.org/fhir/us/core/StructureDefinition/us-core-sex",
];
const GENDER_IDENTITY_EXTENSIONS = [
  "http://hl7.org/fhir/us/core/StructureDefinition/us-core-genderIdentity",
  "http://hl7.org/fhir/StructureDefinition/individual-genderIdentity",
  "http://hl7.org/fhir/StructureDefinition/patient-genderIdentity",
];

/** One demographics record per patient: a source describes one patient, whatever its Patient resource's id. */
export function normalizePatient(patient: Json): RecordDraft {
  const deceasedDateTime = dateTime(patient.deceasedDateTime);
  const active = boolean(patient.active);
  const data: Demographics = {
    category: "demographics",
    status: active === null ? null : active ? "active" : "inactive",
    code: null,
    name: currentPersonName(patient.name),
    birthDate: date(patient.birthDate),
    gender: code(patient.gender),
    birthSex: birthSex(patient.extension),
    sex: extensionConcept(patient.extension, SEX_EXTENSIONS),
    genderIdentity: extensionConcept(patient.extension, GENDER_IDENTITY_EXTENSIONS),
    deceased: boolean(patient.deceasedBoolean) ?? (deceasedDateTime === null ? null : true),
    deceasedDateTime,
    addresses: addresses(patient.address),
    telecom: telecom(patient.telecom),
    language: preferredLanguage(patient.communication),
    maritalStatus: codeable(patient.maritalStatus),
    race: raceOrEthnicity(patient.extension, RACE_EXTENSION),
    ethnicity: raceOrEthnicity(patient.extension, ETHNICITY_EXTENSION),
    identifiers: identifiers(patient.identifier),
  };
  return { keyParts: ["patient"], data };
}

/** The code as sent: US Core's F, M and UNK are upper case, unlike the lowercased FHIR status codes. */
function birthSex(extensions: unknown): string | null {
  const extension = objects(extensions).find((item) => item.url === BIRTH_SEX_EXTENSION);
  return string(extension?.valueCode)?.trim() ?? null;
}

/** The concept of the first of these extensions present, whichever of code, Coding or CodeableConcept it holds
 *  (the core individual-genderIdentity extension nests its value in a `value` sub-extension). */
function extensionConcept(extensions: unknown, urls: string[]): Demographics["sex"] {
  const extension = objects(extensions).find((item) => urls.includes(String(item.url)));
  if (!extension) return null;
  const holder = objects(extension.extension).find((part) => part.url === "value") ?? extension;
  const codeOnly = string(holder.valueCode);
  if (codeOnly !== null) return { text: codeOnly, codings: [{ system: null, code: codeOnly, display: null }] };
  const single = coding(object(holder.valueCoding));
  if (single) return { text: single.display ?? single.code, codings: [single] };
  return codeable(holder.valueCodeableConcept);
}

function addresses(value: unknown): Demographics["addresses"] {
  return objects(value).flatMap((raw) => {
    const address = {
      use: code(raw.use),
      city: string(raw.city),
      state: string(raw.state),
      postalCode: string(raw.postalCode),
      country: string(raw.country),
    };
    return address.city ?? address.state ?? address.postalCode ?? address.country ? [address] : [];
  });
}

function telecom(value: unknown): Demographics["telecom"] {
  return objects(value).flatMap((raw) => {
    const contactValue = string(raw.value);
    return contactValue === null ? [] : [{ system: code(raw.system), value: contactValue, use: code(raw.use) }];
  });
}

function preferredLanguage(value: unknown): Demographics["language"] {
  const communications = objects(value);
  const chosen = communications.find((item) => item.preferred === true) ?? communications[0];
  return codeable(chosen?.language);
}

function raceOrEthnicity(extensions: unknown, url: string): Demographics["race"] {
  const extension = objects(extensions).find((item) => item.url === url);
  if (!extension) return null;
  const parts = objects(extension.extension);
  const codingsOf = (partUrl: string) =>
    parts.filter((part) => part.url === partUrl).flatMap((part) => coding(object(part.valueCoding)) ?? []);
  const text = string(parts.find((part) => part.url === "text")?.valueString);
  const result = { text, ombCategories: codingsOf("ombCategory"), detailed: codingsOf("detailed") };
  return text === null && result.ombCategories.length === 0 && result.detailed.length === 0 ? null : result;
}
