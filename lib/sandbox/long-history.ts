import type { Bundle, BundleEntry, Encounter, FhirResource, Observation, Procedure, Reference } from "fhir/r4";
import baselineAdultBundle from "@/fixtures/bundles/baseline-adult.json" with { type: "json" };

/**
 * How many resources the registered `long-history` scenario's patient holds: 10,000, or what
 * CHARTKEY_SANDBOX_LONG_HISTORY_RESOURCES says (the bench imports larger histories through the same health system).
 */
export const LONG_HISTORY_RESOURCES = Number.parseInt(process.env.CHARTKEY_SANDBOX_LONG_HISTORY_RESOURCES ?? "", 10) || 10_000;
/** How far back the repeated visits reach. */
const YEARS = 10;
const DAY_MS = 24 * 60 * 60 * 1000;
// The scenario a long history is grown from; its ids are renamed so the two scenarios' patients never meet.
const SOURCE_PREFIX = "baseline-adult-";
const PREFIX = "long-history-";

type VisitResource = Encounter | Observation | Procedure;
const REPEATED = new Set(["Encounter", "Observation", "Procedure"]);

/**
 * A patient with ten years of history, `resources` FHIR resources in all (at least the scenario's own): the
 * baseline-adult scenario Bundle whole (its ids, the patient's included, renamed `long-history-…`), plus its visits
 * (encounters with their labs, vital signs and procedures) repeated at even intervals over the ten years before
 * them, each copy moved back in time, given its own id, pointed at its own encounter copy and with measured values
 * moved a little, so every copy is a distinct clinical fact that normalizes to its own record. Deterministic in
 * `resources`, so every run imports the same history.
 */
export function longHistoryBundle(resources: number): Bundle {
  const bundle = longHistoryBase();
  const entries = bundle.entry ?? [];
  const visit = entries.filter((entry): entry is BundleEntry & { resource: VisitResource } => REPEATED.has(entry.resource?.resourceType ?? ""));
  const extra = Math.max(0, resources - entries.length);
  const rounds = Math.ceil(extra / visit.length);
  const spacingDays = (YEARS * 365) / Math.max(1, rounds);

  const copies: BundleEntry[] = [];
  for (let round = 1; round <= rounds; round++) {
    const days = Math.round(round * spacingDays);
    for (const original of visit) {
      if (copies.length >= extra) break;
      const copy = earlierVisit(original.resource, round, days);
      copies.push({ fullUrl: original.fullUrl?.replace(/[^/]+$/, copy.id!), resource: copy as FhirResource });
    }
  }
  bundle.id = resources === LONG_HISTORY_RESOURCES ? "long-history-bundle" : `long-history-${resources}-bundle`;
  bundle.entry = [...entries, ...copies];
  return bundle;
}

/**
 * What a long history is grown from: the baseline-adult Bundle under long-history ids. Its Patient is the long
 * history's, and it holds every resource type the long history does (the rest are copies of its visits).
 */
export function longHistoryBase(): Bundle {
  const bundle = JSON.parse(JSON.stringify(baselineAdultBundle).replaceAll(SOURCE_PREFIX, PREFIX)) as Bundle;
  // A person of their own: the health system's patient list shows both patients, and two people of one name, birth
  // date, address or record number would leave a patient guessing which record is theirs.
  for (const entry of bundle.entry ?? []) {
    const patient = entry.resource;
    if (patient?.resourceType !== "Patient") continue;
    patient.name = [{ use: "official", family: "Lindqvist", given: ["Ingrid", "Sofia"] }];
    patient.birthDate = "1974-10-27";
    patient.telecom = [
      { system: "phone", value: "937-555-0187", use: "mobile" },
      { system: "email", value: "ingrid.lindqvist@example.com", use: "home" },
    ];
    patient.address = [{ use: "home", line: ["907 Salem Avenue"], city: "Kettering", state: "OH", postalCode: "45429", country: "US" }];
    for (const identifier of patient.identifier ?? []) if (identifier.value === "RB-00482913") identifier.value = "RB-00517726";
    patient.communication = [{ language: { coding: [{ system: "urn:ietf:bcp:47", code: "en-US", display: "English (United States)" }], text: "English (United States)" }, preferred: true }];
    patient.extension = patient.extension?.filter((extension) => !extension.url.endsWith("us-core-ethnicity"));
  }
  return bundle;
}

/** The resource as it was recorded at the visit `days` earlier, the `round`th copy of it. */
function earlierVisit(original: VisitResource, round: number, days: number): VisitResource {
  const copy = structuredClone(original);
  copy.id = `${original.id}-h${round}`;
  const factor = 1 + ((round % 21) - 10) / 100;
  switch (copy.resourceType) {
    case "Encounter":
      if (copy.period?.start) copy.period.start = shifted(copy.period.start, days);
      if (copy.period?.end) copy.period.end = shifted(copy.period.end, days);
      break;
    case "Observation":
      copy.encounter = renamed(copy.encounter, round);
      if (copy.effectiveDateTime) copy.effectiveDateTime = shifted(copy.effectiveDateTime, days);
      if (copy.effectivePeriod?.start) copy.effectivePeriod.start = shifted(copy.effectivePeriod.start, days);
      if (copy.effectivePeriod?.end) copy.effectivePeriod.end = shifted(copy.effectivePeriod.end, days);
      if (copy.issued) copy.issued = shifted(copy.issued, days);
      scale(copy.valueQuantity, factor);
      for (const component of copy.component ?? []) scale(component.valueQuantity, factor);
      break;
    case "Procedure":
      copy.encounter = renamed(copy.encounter, round);
      if (copy.performedDateTime) copy.performedDateTime = shifted(copy.performedDateTime, days);
      if (copy.performedPeriod?.start) copy.performedPeriod.start = shifted(copy.performedPeriod.start, days);
      if (copy.performedPeriod?.end) copy.performedPeriod.end = shifted(copy.performedPeriod.end, days);
      break;
  }
  return copy;
}

function renamed(reference: Reference | undefined, round: number): Reference | undefined {
  return reference?.reference ? { ...reference, reference: `${reference.reference}-h${round}` } : reference;
}

/**
 * The time `days` earlier. Only the date moves: whole days keep the time of day and the offset as written (a
 * date-only or partial date stays one).
 */
function shifted(time: string, days: number): string {
  const day = Date.parse(`${time.slice(0, 10)}T00:00:00Z`);
  if (time.length < 10 || Number.isNaN(day)) return time;
  return new Date(day - days * DAY_MS).toISOString().slice(0, 10) + time.slice(10);
}

function scale(quantity: { value?: number } | undefined, factor: number): void {
  if (quantity?.value === undefined) return;
  quantity.value = Math.round(quantity.value * factor * 100) / 100;
}
