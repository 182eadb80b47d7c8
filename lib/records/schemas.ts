import { z } from "zod";
import { CATEGORIES, type Category } from "./category-names";

/** Client-safe: forms validate categories with the same names the API uses. */
export { CATEGORIES, categorySchema, type Category } from "./category-names";

// FHIR R4 primitive patterns, taken from the R4 JSON schema: partial dates are allowed, and a time of day must carry
// an offset. Values are stored exactly as the health system sent them, so these patterns only reject malformed input.
export const FHIR_DATE_TIME_PATTERN =
  /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$/;
export const FHIR_DATE_PATTERN = /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?$/;

const dateTimeSchema = z
  .string()
  .regex(FHIR_DATE_TIME_PATTERN)
  .describe(
    "A FHIR dateTime exactly as the health system sent it: the original UTC offset is kept, and partial dates " +
      "(YYYY, YYYY-MM, YYYY-MM-DD) stay partial.",
  );
const dateSchema = z.string().regex(FHIR_DATE_PATTERN).describe("A date without a time: YYYY, YYYY-MM or YYYY-MM-DD.");
const statusSchema = z
  .string()
  .nullable()
  .describe("The source's status code, lowercased (for conditions and allergies, the clinical status); null when absent.");
const recordIdSchema = z.string().regex(/^rec_[0-9A-Za-z]{24}$/).describe("Stable record id, the same across re-imports.");

export const codingSchema = z
  .object({
    system: z.string().nullable().describe("Code system URI, e.g. http://loinc.org."),
    code: z.string(),
    display: z.string().nullable(),
  })
  .meta({ id: "Coding", description: "One code from a code system." });

export const codeableSchema = z
  .object({
    text: z.string().nullable().describe("Human-readable label: the source's text, else the first coding's display."),
    codings: z.array(codingSchema).describe("Every coding the source sent, in its order."),
  })
  .meta({ id: "Codeable", description: "A concept: a label plus the codes the source used for it." });

const quantityFields = {
  value: z.number().nullable(),
  comparator: z.enum(["<", "<=", ">=", ">"]).nullable().describe("Set when the value is a bound, e.g. <0.5."),
  unit: z.string().nullable().describe("Unit as displayed by the source."),
  system: z.string().nullable().describe("Unit system URI, usually http://unitsofmeasure.org (UCUM)."),
  code: z.string().nullable().describe("Machine-readable unit code in that system."),
};

export const quantitySchema = z.object(quantityFields).meta({ id: "Quantity", description: "A measured amount." });

export const moneySchema = z
  .object({ value: z.number().nullable(), currency: z.string().nullable().describe("ISO 4217 code, e.g. USD.") })
  .meta({ id: "Money", description: "An amount of money." });

export const periodSchema = z
  .object({ start: dateTimeSchema.nullable(), end: dateTimeSchema.nullable() })
  .meta({ id: "Period", description: "A time span; either end may be open (null)." });

export const clinicalTimeSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("dateTime"), value: dateTimeSchema }),
    z.object({ type: z.literal("period"), start: dateTimeSchema.nullable(), end: dateTimeSchema.nullable() }),
    z.object({ type: z.literal("age"), value: quantitySchema }),
    z.object({ type: z.literal("range"), low: quantitySchema.nullable(), high: quantitySchema.nullable() }),
    z.object({ type: z.literal("text"), value: z.string() }),
  ])
  .meta({
    id: "ClinicalTime",
    description:
      "When something happened, in whichever form the source used: a dateTime (possibly a partial date), a " +
      "period, an age, an age range, or free text. Times keep the source's original offset.",
  });

export const referenceRangeSchema = z
  .object({
    low: quantitySchema.nullable(),
    high: quantitySchema.nullable(),
    type: codeableSchema.nullable().describe("What the range means, e.g. normal or therapeutic."),
    text: z.string().nullable().describe("The range as text, e.g. Negative."),
  })
  .meta({ id: "ReferenceRange", description: "A reference range for interpreting an observed value." });

export const sourceRefSchema = z
  .object({
    sourceId: z.string(),
    sourceName: z.string(),
    resourceType: z.string().describe("FHIR resource type the fact came from."),
    resourceId: z.string().nullable().describe("Id of that resource at the source; null if the source gave none."),
    document: z
      .object({ resourceType: z.string(), resourceId: z.string().nullable() })
      .optional()
      .describe("Present when the fact was read from a C-CDA document the source sent: the DocumentReference (or Binary) that carried it. resourceType and resourceId then name the FHIR resource the document's section was converted to."),
  })
  .meta({ id: "SourceRef", description: "Provenance: one source resource that reported this fact." });

export const identifierSchema = z
  .object({
    system: z.string().nullable(),
    value: z.string(),
    type: z.string().nullable().describe("Kind of identifier, e.g. Medical Record Number."),
  })
  .meta({ id: "Identifier", description: "An identifier assigned by some system. Social security numbers are never served." });

export const observationValueSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("quantity"), ...quantityFields }),
    z.object({ type: z.literal("codeable"), text: codeableSchema.shape.text, codings: codeableSchema.shape.codings }),
    z.object({ type: z.literal("string"), value: z.string() }),
    z.object({ type: z.literal("boolean"), value: z.boolean() }),
    z.object({ type: z.literal("integer"), value: z.int() }),
    z.object({ type: z.literal("range"), low: quantitySchema.nullable(), high: quantitySchema.nullable() }),
    z.object({ type: z.literal("ratio"), numerator: quantitySchema.nullable(), denominator: quantitySchema.nullable() }),
    z.object({ type: z.literal("dateTime"), value: dateTimeSchema }),
    z.object({ type: z.literal("time"), value: z.string() }),
    z.object({ type: z.literal("period"), start: dateTimeSchema.nullable(), end: dateTimeSchema.nullable() }),
  ])
  .meta({ id: "ObservationValue", description: "An observed value, tagged by its FHIR value type." });

export const observationComponentSchema = z
  .object({
    code: codeableSchema,
    value: observationValueSchema.nullable(),
    dataAbsentReason: codeableSchema.nullable().describe("Why the value is missing, when it is."),
  })
  .meta({
    id: "ObservationComponent",
    description: "One part of a multi-part observation, e.g. the systolic reading of a blood pressure.",
  });

const personNameSchema = z
  .object({
    text: z.string().nullable().describe("Full name as one string."),
    given: z.array(z.string()),
    family: z.string().nullable(),
    prefix: z.array(z.string()),
    suffix: z.array(z.string()),
  })
  .meta({ id: "PersonName", description: "A person's name." });

const addressSchema = z
  .object({
    use: z.string().nullable().describe("home, work, temp, old or billing."),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string().nullable(),
  })
  .meta({ id: "Address", description: "A postal address, without street lines." });

const contactPointSchema = z
  .object({
    system: z.string().nullable().describe("phone, email, fax, url, ..."),
    value: z.string(),
    use: z.string().nullable().describe("home, work, mobile, old, ..."),
  })
  .meta({ id: "ContactPoint", description: "A phone number, email address or other contact." });

const raceOrEthnicitySchema = z
  .object({
    text: z.string().nullable(),
    ombCategories: z.array(codingSchema).describe("OMB minimum categories."),
    detailed: z.array(codingSchema).describe("Detailed CDC race and ethnicity codes."),
  })
  .meta({ id: "RaceOrEthnicity", description: "US Core race or ethnicity." });

const dosageSchema = z
  .object({
    text: z.string().nullable().describe("Instructions as written."),
    asNeeded: z.boolean().nullable(),
    route: codeableSchema.nullable(),
    dose: quantitySchema.nullable(),
    frequency: z
      .object({
        timesPerPeriod: z.number().nullable(),
        period: z.number().nullable(),
        periodUnit: z.string().nullable().describe("s, min, h, d, wk, mo or a."),
      })
      .nullable()
      .describe("timesPerPeriod doses every period periodUnit, e.g. 2 per 1 d."),
    timingCode: codeableSchema.nullable().describe("A named schedule, e.g. BID or QID (Timing.code)."),
    when: z.array(z.string()).describe("Event-related times, e.g. ACM (before breakfast), HS (at bedtime)."),
    bounds: periodSchema.nullable().describe("From when until when to take it (timing.repeat.boundsPeriod)."),
    asNeededFor: codeableSchema.nullable().describe("The condition it is taken as needed for (asNeededCodeableConcept)."),
  })
  .meta({ id: "Dosage", description: "How a medication is to be taken." });

const allergyReactionSchema = z
  .object({
    substance: codeableSchema.nullable().describe("The specific substance, when it differs from the allergy's code."),
    manifestations: z.array(codeableSchema),
    severity: z.string().nullable().describe("mild, moderate or severe."),
    onset: dateTimeSchema.nullable(),
    description: z.string().nullable(),
  })
  .meta({ id: "AllergyReaction", description: "One reaction event." });

const attachmentSchema = z
  .object({
    contentType: z.string().nullable(),
    title: z.string().nullable(),
    url: z.string().nullable().describe("Where the content can be fetched, when the source gave a URL."),
    size: z.int().nullable().describe("Size in bytes as reported by the source, else of the inline content."),
    hasData: z.boolean().describe("True when the source sent the content inline; the content itself is not served, except as `text`."),
    text: z
      .string()
      .nullable()
      .describe(
        "The content as text when the source sent it inline as text/plain, or as text/html (tags dropped): the first 64 KiB (UTF-8), and the record carries a warning when the content was longer. Null for any other content (PDF, images, C-CDA XML, content only at a url).",
      ),
  })
  .meta({ id: "Attachment", description: "One rendition of a document's content." });

export const encounterContextSchema = z
  .object({
    resourceId: z.string().nullable().describe("Id of the Encounter at the source."),
    class: z.string().nullable().describe("The encounter class code, e.g. AMB (ambulatory), IMP (inpatient), EMER."),
    type: codeableSchema.nullable().describe("What kind of visit it was, e.g. an office visit."),
    period: periodSchema.nullable().describe("When the encounter took place."),
    location: z.string().nullable().describe("Where: the first location's name, else the service provider's."),
  })
  .meta({
    id: "EncounterContext",
    description:
      "The visit a record was made in. Encounters are not records themselves; each record that references one " +
      "carries its date, type and location. Only resourceId is set when the source did not send the Encounter.",
  });

const coverageClassSchema = z
  .object({ value: z.string(), name: z.string().nullable() })
  .meta({ id: "CoverageClass", description: "A plan or group identifier of a coverage, with its name." });

const coverageSchema = z
  .object({
    payer: z.string().nullable().describe("Who pays: the first payor's name."),
    plan: coverageClassSchema.nullable(),
    group: coverageClassSchema.nullable(),
    memberId: z.string().nullable().describe("The member identifier (type MB), else the subscriber id."),
    subscriberId: z.string().nullable(),
    dependent: z.string().nullable().describe("The dependent number within the subscriber's coverage."),
    relationship: codeableSchema.nullable().describe("Beneficiary's relationship to the subscriber, e.g. self, spouse."),
    period: periodSchema.nullable().describe("When the coverage is in force."),
    network: z.string().nullable(),
  })
  .meta({ id: "Coverage", description: "An insurance coverage: payer, plan, member and group ids (from Coverage)." });

const claimTotalSchema = z
  .object({ category: codeableSchema.nullable().describe("e.g. submitted, benefit."), amount: moneySchema })
  .meta({ id: "ClaimTotal", description: "A total of a claim, by adjudication category." });

const claimItemSchema = z
  .object({
    sequence: z.int().nullable(),
    service: codeableSchema.nullable().describe("The billed product or service."),
    serviced: clinicalTimeSchema.nullable(),
    revenue: codeableSchema.nullable().describe("Institutional revenue center code (NUBC)."),
    quantity: quantitySchema.nullable().describe("How many units were billed."),
    unitPrice: moneySchema.nullable().describe("The charge per unit."),
    net: moneySchema.nullable(),
    adjudications: z.array(
      z.object({ category: codeableSchema.nullable(), amount: moneySchema.nullable() }).describe("One adjudicated amount."),
    ),
  })
  .meta({ id: "ClaimItem", description: "One billed line." });

const claimSupportingInfoSchema = z
  .object({
    sequence: z.int().nullable(),
    category: codeableSchema.nullable().describe("What the information is, e.g. admission period, DRG, type of bill, days supply."),
    code: codeableSchema.nullable().describe("The coded information, e.g. a DRG or discharge status code."),
    timing: clinicalTimeSchema.nullable().describe("A date or period, e.g. the admission period or claim received date."),
    value: observationValueSchema.nullable().describe("A value, e.g. the days supply as a quantity."),
    reason: codeableSchema.nullable(),
  })
  .meta({ id: "ClaimSupportingInfo", description: "Additional coded information about a claim (supportingInfo)." });

const claimCareTeamMemberSchema = z
  .object({
    sequence: z.int().nullable(),
    provider: z.string().nullable().describe("The practitioner or organization, as a display name."),
    role: codeableSchema.nullable().describe("e.g. attending, referring, performing, prescribing."),
    qualification: codeableSchema.nullable(),
  })
  .meta({ id: "ClaimCareTeamMember", description: "A member of the care team a claim names." });

export const demographicsDataSchema = z.object({
  category: z.literal("demographics"),
  status: statusSchema.describe("active or inactive, from Patient.active; null when absent."),
  code: z.null().describe("Demographics have no clinical code."),
  name: personNameSchema.nullable().describe("The official name, else the usual, else the first current one."),
  birthDate: dateSchema.nullable(),
  gender: z.string().nullable().describe("Administrative gender: male, female, other or unknown."),
  birthSex: z
    .string()
    .nullable()
    .describe("Sex assigned at birth, from the US Core birthsex extension: F, M or UNK, as sent; null when absent."),
  // The spec names no field for these; US Core 6+ moved sex out of `gender`, so each kept concept is its own field.
  sex: codeableSchema
    .nullable()
    .describe(
      "Sex for clinical use, from the US Core individual-sex (US Core 8+) or sex (US Core 6-7) extension, coded as sent " +
        "(SNOMED CT or the US Core value set); null when absent. Independent of gender and birthSex.",
    ),
  genderIdentity: codeableSchema
    .nullable()
    .describe("Gender identity, from the US Core genderIdentity extension or the core patient-genderIdentity extension."),
  deceased: z.boolean().nullable(),
  deceasedDateTime: dateTimeSchema.nullable(),
  addresses: z.array(addressSchema),
  telecom: z.array(contactPointSchema),
  language: codeableSchema.nullable().describe("Preferred language, else the first listed."),
  maritalStatus: codeableSchema.nullable(),
  race: raceOrEthnicitySchema.nullable(),
  ethnicity: raceOrEthnicitySchema.nullable(),
  identifiers: z.array(identifierSchema),
});

export const conditionDataSchema = z.object({
  category: z.literal("conditions"),
  status: statusSchema,
  code: codeableSchema,
  clinicalStatus: z.string().nullable().describe("active, recurrence, relapse, inactive, remission or resolved."),
  verificationStatus: z.string().nullable().describe("unconfirmed, provisional, differential, confirmed or refuted."),
  categories: z.array(codeableSchema).describe("e.g. problem-list-item, encounter-diagnosis."),
  severity: codeableSchema.nullable(),
  onset: clinicalTimeSchema.nullable(),
  abatement: clinicalTimeSchema.nullable(),
  recordedDate: dateTimeSchema.nullable(),
});

export const medicationDataSchema = z.object({
  category: z.literal("medications"),
  kind: z
    .enum(["request", "statement", "dispense"])
    .describe("From a MedicationRequest (an order), a MedicationStatement, or a MedicationDispense (a pharmacy fill)."),
  status: statusSchema,
  code: codeableSchema.describe("The medication; from the referenced Medication when the source used a reference."),
  intent: z.string().nullable().describe("proposal, plan, order, ... (requests only)."),
  authoredOn: dateTimeSchema.nullable().describe("When the request was written, or the statement asserted."),
  effective: clinicalTimeSchema
    .nullable()
    .describe("When the medication is or was taken (statements), or was handed over to the patient (dispenses)."),
  dosages: z.array(dosageSchema),
  requester: z.string().nullable().describe("Who asked for it, as a display name."),
  reasonCodes: z.array(codeableSchema).describe("Reasons given as codes or as references to conditions."),
  dispenseRequest: z
    .object({
      quantity: quantitySchema.nullable().describe("Amount to dispense per fill."),
      refillsAllowed: z.int().nullable().describe("Number of refills authorized after the first fill."),
      validityPeriod: periodSchema.nullable().describe("When the prescription may be filled."),
      expectedSupplyDuration: quantitySchema.nullable().describe("How long one fill should last."),
    })
    .nullable()
    .describe("What the prescriber authorized the pharmacy to dispense (requests only)."),
  quantity: quantitySchema.nullable().describe("Amount dispensed (dispenses only)."),
  daysSupply: quantitySchema.nullable().describe("How long the dispensed amount should last (dispenses only)."),
});

export const allergyDataSchema = z.object({
  category: z.literal("allergies"),
  status: statusSchema,
  code: codeableSchema.describe("The substance or class the patient reacts to."),
  clinicalStatus: z.string().nullable().describe("active, inactive or resolved."),
  verificationStatus: z.string().nullable().describe("unconfirmed, confirmed or refuted."),
  type: z.string().nullable().describe("allergy or intolerance."),
  categories: z.array(z.string()).describe("food, medication, environment or biologic."),
  criticality: z.string().nullable().describe("low, high or unable-to-assess."),
  onset: clinicalTimeSchema.nullable(),
  recordedDate: dateTimeSchema.nullable(),
  lastOccurrence: dateTimeSchema.nullable(),
  reactions: z.array(allergyReactionSchema),
});

export const immunizationDataSchema = z.object({
  category: z.literal("immunizations"),
  status: statusSchema.describe("completed or not-done."),
  code: codeableSchema.describe("The vaccine."),
  statusReason: codeableSchema.nullable().describe("Why it was not done."),
  occurrence: clinicalTimeSchema.nullable(),
  recorded: dateTimeSchema.nullable(),
  primarySource: z.boolean().nullable().describe("True when recorded by the person who administered it."),
  lotNumber: z.string().nullable(),
  site: codeableSchema.nullable(),
  route: codeableSchema.nullable(),
  dose: quantitySchema.nullable(),
  protocolApplied: z
    .array(
      z.object({
        series: z.string().nullable().describe("The series name, e.g. 2-dose."),
        doseNumber: z.string().nullable().describe("This dose's position in the series, as sent (a number or text)."),
        seriesDoses: z.string().nullable().describe("The recommended number of doses, as sent (a number or text)."),
        targetDiseases: z.array(codeableSchema).describe("The diseases the dose protects against."),
      }),
    )
    .describe("Where the dose sits in each vaccination series (protocolApplied), in the source's order."),
});

const reportReferenceSchema = z
  .object({
    resourceId: z.string().nullable().describe("Id of the DiagnosticReport at the source, as in the sources of its records."),
    code: codeableSchema.nullable().describe("What the report is, e.g. a LOINC panel such as CBC."),
    recordId: recordIdSchema
      .nullable()
      .describe("The documents record made from the report when it has a presented form (a rendered report); else null."),
  })
  .meta({ id: "ReportReference", description: "The diagnostic report that groups a result." });

function observationDataSchema<C extends "labs" | "vitals">(category: C) {
  return z.object({
    category: z.literal(category),
    status: statusSchema,
    code: codeableSchema.describe("What was observed, usually LOINC."),
    categories: z.array(codingSchema).describe("The source's observation category codings."),
    effective: clinicalTimeSchema.nullable().describe("When the observation applies to the patient."),
    issued: dateTimeSchema.nullable().describe("When the result was released."),
    value: observationValueSchema.nullable(),
    dataAbsentReason: codeableSchema.nullable().describe("Why the value is missing, when it is."),
    components: z.array(observationComponentSchema),
    referenceRanges: z.array(referenceRangeSchema),
    interpretations: z.array(codingSchema).describe("e.g. H (high), L (low), N (normal)."),
    bodySite: codeableSchema.nullable(),
    specimen: codeableSchema.nullable().describe("The specimen type, or its display when the specimen is not available."),
    notes: z.array(z.string()).describe("Comments about the result (the texts of Observation.note), in the source's order."),
    report: reportReferenceSchema
      .nullable()
      .describe("The DiagnosticReport that lists this result (e.g. its lab panel); null when the source sent none."),
  });
}

export const labDataSchema = observationDataSchema("labs");
export const vitalDataSchema = observationDataSchema("vitals");

export const procedureDataSchema = z.object({
  category: z.literal("procedures"),
  status: statusSchema,
  code: codeableSchema,
  performed: clinicalTimeSchema.nullable(),
  bodySites: z.array(codeableSchema),
  reasonCodes: z.array(codeableSchema).describe("Reasons given as codes or as references to conditions."),
});

export const documentDataSchema = z.object({
  category: z.literal("documents"),
  kind: z
    .enum(["documentReference", "diagnosticReport"])
    .describe("From a DocumentReference, or from a DiagnosticReport with a presented form (a note or rendered report)."),
  status: statusSchema.describe(
    "current or superseded for a DocumentReference; the report's status (final, amended, ...) for a DiagnosticReport.",
  ),
  code: codeableSchema.describe("The document type or report code, usually LOINC."),
  docStatus: z.string().nullable().describe("preliminary, final, amended or entered-in-error (DocumentReference only)."),
  categories: z.array(codeableSchema),
  date: dateTimeSchema
    .nullable()
    .describe("When the document was made; for a DiagnosticReport, its effective time, else when it was issued."),
  description: z.string().nullable().describe("The DocumentReference's description, or the DiagnosticReport's conclusion."),
  authors: z.array(z.string()).describe("Display names of the authors, or of a report's performers and interpreters."),
  attachments: z.array(attachmentSchema),
  period: periodSchema
    .nullable()
    .describe("When the documented care happened (DocumentReference.context.period), as opposed to when it was written."),
  facility: z
    .string()
    .nullable()
    .describe("Where the care happened: the encounter's location, else the kind of facility (context.facilityType)."),
  practiceSetting: codeableSchema.nullable().describe("The clinical specialty of the care, e.g. family practice."),
  conclusionCodes: z.array(codeableSchema).describe("A DiagnosticReport's coded conclusions (conclusionCode); else empty."),
  narrative: z
    .string()
    .nullable()
    .describe("A DiagnosticReport's human-readable narrative (text.div, markup removed) when it has no presented form."),
});

export const claimDataSchema = z.object({
  category: z.literal("claims"),
  kind: z
    .enum(["claim", "explanationOfBenefit", "coverage"])
    .describe("A submitted Claim, a payer's ExplanationOfBenefit, or an insurance Coverage (see coverage)."),
  status: statusSchema,
  code: codeableSchema.describe(
    "The claim type, e.g. institutional, professional, pharmacy; for a coverage, its type (e.g. PPO), else its plan.",
  ),
  use: z.string().nullable().describe("claim, preauthorization or predetermination."),
  outcome: z.string().nullable().describe("queued, complete, error or partial (explanations of benefit)."),
  identifiers: z.array(identifierSchema),
  billablePeriod: periodSchema.nullable(),
  created: dateTimeSchema.nullable(),
  insurer: z.string().nullable(),
  provider: z.string().nullable(),
  totals: z.array(claimTotalSchema),
  payment: moneySchema.nullable().describe("Amount paid (explanations of benefit)."),
  diagnoses: z.array(codeableSchema),
  items: z.array(claimItemSchema),
  supportingInfo: z.array(claimSupportingInfoSchema),
  careTeam: z.array(claimCareTeamMemberSchema),
  coverage: coverageSchema.nullable().describe("Set on coverages (kind coverage) only."),
});

function withProvenance<Shape extends z.ZodRawShape>(data: z.ZodObject<Shape>, meta: { id: string; description: string }) {
  return z
    .object({
      recordId: recordIdSchema,
      ...data.shape,
      encounter: encounterContextSchema
        .nullable()
        .describe("The encounter the source record names (always null for demographics)."),
      warnings: z
        .array(z.string())
        .optional()
        .describe(
          "What normalizing this record found wrong with the source's data, e.g. a field that held unfilled template " +
            "text such as {{value}} and was read as null. Absent when nothing was found.",
        ),
      sources: z.array(sourceRefSchema).min(1).describe("Every source resource that reported this fact."),
    })
    .meta(meta);
}

export const demographicsRecordSchema = withProvenance(demographicsDataSchema, {
  id: "DemographicsRecord",
  description: "The patient's demographics (from Patient).",
});
export const conditionRecordSchema = withProvenance(conditionDataSchema, {
  id: "ConditionRecord",
  description: "A problem, diagnosis or health concern (from Condition).",
});
export const medicationRecordSchema = withProvenance(medicationDataSchema, {
  id: "MedicationRecord",
  description: "A medication order, statement or dispense (from MedicationRequest, MedicationStatement or MedicationDispense).",
});
export const allergyRecordSchema = withProvenance(allergyDataSchema, {
  id: "AllergyRecord",
  description: "An allergy or intolerance (from AllergyIntolerance).",
});
export const immunizationRecordSchema = withProvenance(immunizationDataSchema, {
  id: "ImmunizationRecord",
  description: "A vaccination given or not given (from Immunization).",
});
export const labRecordSchema = withProvenance(labDataSchema, {
  id: "LabRecord",
  description: "A laboratory result (from an Observation in the laboratory category without a vital-signs code).",
});
export const vitalRecordSchema = withProvenance(vitalDataSchema, {
  id: "VitalRecord",
  description: "A vital sign (from an Observation with a FHIR vital-signs LOINC code, or in the vital-signs category).",
});
export const procedureRecordSchema = withProvenance(procedureDataSchema, {
  id: "ProcedureRecord",
  description: "A procedure performed on the patient (from Procedure).",
});
export const documentRecordSchema = withProvenance(documentDataSchema, {
  id: "DocumentRecord",
  description:
    "A clinical document's metadata (from a DocumentReference, or a DiagnosticReport with a presented form); inline " +
    "content is never copied.",
});
export const claimRecordSchema = withProvenance(claimDataSchema, {
  id: "ClaimRecord",
  description: "A claim, explanation of benefit or insurance coverage (from Claim, ExplanationOfBenefit or Coverage).",
});

export const recordDataSchemas = {
  demographics: demographicsDataSchema,
  conditions: conditionDataSchema,
  medications: medicationDataSchema,
  allergies: allergyDataSchema,
  immunizations: immunizationDataSchema,
  labs: labDataSchema,
  vitals: vitalDataSchema,
  procedures: procedureDataSchema,
  documents: documentDataSchema,
  claims: claimDataSchema,
} satisfies Record<Category, z.ZodType>;

export const recordSchemas = {
  demographics: demographicsRecordSchema,
  conditions: conditionRecordSchema,
  medications: medicationRecordSchema,
  allergies: allergyRecordSchema,
  immunizations: immunizationRecordSchema,
  labs: labRecordSchema,
  vitals: vitalRecordSchema,
  procedures: procedureRecordSchema,
  documents: documentRecordSchema,
  claims: claimRecordSchema,
} satisfies Record<Category, z.ZodType>;

export type Coding = z.infer<typeof codingSchema>;
export type Codeable = z.infer<typeof codeableSchema>;
export type Quantity = z.infer<typeof quantitySchema>;
export type Money = z.infer<typeof moneySchema>;
export type Period = z.infer<typeof periodSchema>;
export type ClinicalTime = z.infer<typeof clinicalTimeSchema>;
export type ReferenceRange = z.infer<typeof referenceRangeSchema>;
export type SourceRef = z.infer<typeof sourceRefSchema>;
export type EncounterContext = z.infer<typeof encounterContextSchema>;
export type Identifier = z.infer<typeof identifierSchema>;
export type ObservationValue = z.infer<typeof observationValueSchema>;
export type ObservationComponent = z.infer<typeof observationComponentSchema>;

export type RecordData<C extends Category = Category> = { [K in C]: z.infer<(typeof recordDataSchemas)[K]> }[C];
export type NormalizedRecord<C extends Category = Category> = { [K in C]: z.infer<(typeof recordSchemas)[K]> }[C];

/**
 * What a source's latest completed import yielded and what it did not: records per category, the resources that
 * became no record (per resource type and reason), the context resources read only through references, and the
 * warnings records carry. Stored with the import (SourceImport.recordCounts, skipCounts and fidelity) and shown on
 * the session's and the snapshot's `sources[]` and the dashboard's subject page, so a developer sees what a health
 * system's data did not yield.
 */
export const fidelityReportSchema = z
  .object({
    importId: z.string().describe("The import this report is of: the source's latest completed import."),
    finishedAt: z.string().describe("When that import completed (UTC, millisecond precision, Z suffix)."),
    records: z.object(Object.fromEntries(CATEGORIES.map((category) => [category, z.number().int()])) as Record<Category, z.ZodNumber>).describe("Records the import produced, per category (before merging with the subject's other sources)."),
    skipped: z
      .array(z.object({ resourceType: z.string(), reason: z.string(), count: z.number().int() }))
      .describe("Resources of the ten categories' types that became no record, per resource type and reason (Encounters are always here: the records that reference one carry its date, type and location)."),
    context: z.array(z.object({ resourceType: z.string(), count: z.number().int() })).describe("Resources of other types (Organization, Practitioner, Medication...), read only where records reference them."),
    warnings: z.array(z.object({ warning: z.string(), count: z.number().int() })).describe("Each distinct record warning, with how many records carry it."),
  })
  .meta({ id: "FidelityReport", description: "What one import of a source yielded: records by category, skips by resource type and reason, warnings." });
export type FidelityReport = z.output<typeof fidelityReportSchema>;
