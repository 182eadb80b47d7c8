import type { ClinicalTime, Codeable, NormalizedRecord, ObservationValue, Quantity } from "@/lib/records";

// How a records table row reads a normalized record: its label, its codes with their displays, its value with its
// unit, and its clinical time exactly as the health system sent it (never reformatted: offsets and partial dates are
// the data). Pure and client-safe (type imports only).

export type CodeCell = { system: string; code: string; display: string | null };
export type RecordRow = { label: string; codes: CodeCell[]; value: string; time: string; status: string };

const SYSTEMS: [RegExp, string][] = [
  [/loinc\.org/, "LOINC"],
  [/snomed/, "SNOMED CT"],
  [/rxnorm/, "RxNorm"],
  [/cvx/, "CVX"],
  [/icd-10/, "ICD-10-CM"],
  [/ndc/, "NDC"],
  [/cpt/, "CPT"],
  [/unitsofmeasure/, "UCUM"],
];

/** A short name for a code system URI (LOINC, SNOMED CT, …), else the URI's last path part. */
export function systemName(system: string | null): string {
  if (!system) return "Local";
  for (const [pattern, name] of SYSTEMS) if (pattern.test(system)) return name;
  return system.replace(/^urn:oid:/, "OID ").split("/").filter(Boolean).at(-1) ?? system;
}

export function codeableText(concept: Codeable | null | undefined): string {
  if (!concept) return "";
  return concept.text ?? concept.codings.find((coding) => coding.display)?.display ?? concept.codings[0]?.code ?? "";
}

export function quantityText(quantity: Partial<Quantity> | null | undefined): string {
  if (!quantity || quantity.value === null || quantity.value === undefined) return "";
  const unit = quantity.unit ?? quantity.code ?? "";
  return `${quantity.comparator ?? ""}${quantity.value}${unit ? ` ${unit}` : ""}`;
}

const span = (start: string | null | undefined, end: string | null | undefined) => `${start ?? "…"} – ${end ?? "…"}`;

/** A clinical time as sent: a dateTime or partial date verbatim, a period as its two ends, an age, a range, text. */
export function clinicalTimeText(time: ClinicalTime | null | undefined): string {
  if (!time) return "";
  switch (time.type) {
    case "dateTime":
      return time.value;
    case "period":
      return span(time.start, time.end);
    case "age":
      return `age ${quantityText(time.value)}`;
    case "range":
      return `age ${span(quantityText(time.low) || null, quantityText(time.high) || null)}`;
    case "text":
      return time.value;
  }
}

export function observationValueText(value: ObservationValue | null | undefined): string {
  if (!value) return "";
  switch (value.type) {
    case "quantity":
      return quantityText(value);
    case "codeable":
      return codeableText(value);
    case "string":
    case "dateTime":
    case "time":
      return value.value;
    case "boolean":
    case "integer":
      return String(value.value);
    case "range":
      return span(quantityText(value.low) || null, quantityText(value.high) || null);
    case "ratio":
      return `${quantityText(value.numerator)} / ${quantityText(value.denominator)}`;
    case "period":
      return span(value.start, value.end);
  }
}

function codesOf(concept: Codeable | null | undefined): CodeCell[] {
  return (concept?.codings ?? []).map((coding) => ({ system: systemName(coding.system), code: coding.code, display: coding.display }));
}

const joined = (parts: (string | null | undefined)[]) => parts.filter((part) => part).join("; ");

/** The row a records table shows for one record of any category. */
export function recordRow(record: NormalizedRecord): RecordRow {
  const status = record.status ?? "";
  switch (record.category) {
    case "demographics": {
      const name = record.name?.text ?? joined([record.name?.given.join(" "), record.name?.family]).replace(";", "");
      return { label: name || "Patient", codes: [], value: joined([record.gender, record.birthSex ? `birth sex ${record.birthSex}` : null]), time: record.birthDate ?? "", status };
    }
    case "conditions":
      return { label: codeableText(record.code), codes: codesOf(record.code), value: joined([record.clinicalStatus, record.verificationStatus]), time: clinicalTimeText(record.onset) || (record.recordedDate ?? ""), status };
    case "medications": {
      const dosage = record.dosages[0];
      const value = joined([dosage?.text ?? quantityText(dosage?.dose), quantityText(record.quantity) ? `qty ${quantityText(record.quantity)}` : null]);
      return { label: codeableText(record.code), codes: codesOf(record.code), value: value || record.kind, time: record.authoredOn ?? clinicalTimeText(record.effective), status };
    }
    case "allergies": {
      const reactions = record.reactions.flatMap((reaction) => reaction.manifestations.map(codeableText));
      return { label: codeableText(record.code), codes: codesOf(record.code), value: joined([record.criticality ? `criticality ${record.criticality}` : null, reactions.join(", ")]), time: clinicalTimeText(record.onset) || (record.recordedDate ?? ""), status };
    }
    case "immunizations":
      return { label: codeableText(record.code), codes: codesOf(record.code), value: joined([quantityText(record.dose), record.lotNumber ? `lot ${record.lotNumber}` : null]), time: clinicalTimeText(record.occurrence) || (record.recorded ?? ""), status };
    case "labs":
    case "vitals": {
      const components = record.components.map((component) => `${codeableText(component.code)} ${observationValueText(component.value)}`.trim());
      const interpretation = record.interpretations.map((coding) => coding.code).join(", ");
      const value = joined([observationValueText(record.value) || codeableText(record.dataAbsentReason), ...components]) + (interpretation ? ` (${interpretation})` : "");
      return { label: codeableText(record.code), codes: codesOf(record.code), value, time: clinicalTimeText(record.effective) || (record.issued ?? ""), status };
    }
    case "procedures":
      return { label: codeableText(record.code), codes: codesOf(record.code), value: record.bodySites.map(codeableText).join(", "), time: clinicalTimeText(record.performed), status };
    case "documents":
      return { label: codeableText(record.code), codes: codesOf(record.code), value: record.description ?? record.attachments.map((attachment) => attachment.title ?? attachment.contentType).filter(Boolean).join(", "), time: record.date ?? "", status };
    case "claims": {
      const totals = record.totals.map((total) => `${codeableText(total.category) || "total"} ${total.amount.value ?? ""} ${total.amount.currency ?? ""}`.trim());
      return { label: codeableText(record.code) || record.kind, codes: codesOf(record.code), value: totals.join("; "), time: record.created ?? (record.billablePeriod ? span(record.billablePeriod.start, record.billablePeriod.end) : ""), status };
    }
  }
}
