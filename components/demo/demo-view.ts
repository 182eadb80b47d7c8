import { CATEGORY_DESCRIPTIONS } from "@/lib/applications";
import { buildHealthRecord, demoPath, patientLinks, presentPatient, RATE_LIMIT_SLOT_MS, type PatientScenario } from "@/lib/demo";
import { CATEGORIES, type Category, type NormalizedRecord } from "@/lib/records";
import type { Scenario } from "@/lib/sandbox";

// What the /demo pages show of the keyless demo, computed by the same lib/demo code the /demo/v1 API answers with:
// each patient's records are the categories GET /demo/v1/users/{subject}/records serves under the scenario's consent.

/** At most this many records of a category are listed on a patient's page; the JSON link has them all. */
export const RECORDS_SHOWN = 25;

export type DemoLink = { label: string; href: string };
export type CategoryView = {
  category: Category;
  label: string;
  fhir: string;
  total: number;
  records: NormalizedRecord[];
  json: string;
};
export type PatientView = {
  scenario: PatientScenario;
  patientId: string;
  subject: string;
  name: string;
  birthDate: string | null;
  gender: string | null;
  page: string;
  json: DemoLink[];
  fhir: DemoLink[];
  /** What the records endpoint answers under this scenario's behavior, in plain words; null when it just answers. */
  behaviorNote: string | null;
  /** Categories outside the scenario's consent: the API answers 403 for them, so the page does not show them. */
  withheld: { category: Category; label: string }[];
};

const LABELS = new Map(CATEGORY_DESCRIPTIONS.map((entry) => [entry.category, entry]));
export const categoryLabel = (category: Category) => LABELS.get(category)?.label ?? category;

/** The page of one synthetic patient. */
export const patientPagePath = (patientId: string) => `/demo/patients/${encodeURIComponent(patientId)}`;

export function behaviorNote(scenario: Scenario): string | null {
  switch (scenario.behavior) {
    case "rate_limited":
      return `Record reads answer 429 rate_limited in every other ${RATE_LIMIT_SLOT_MS / 1000}-second slot, with Retry-After: follow the JSON link twice to see both answers.`;
    case "consent_revoked":
      return "The patient revoked sharing: record reads answer 410 consent_inactive. The records below are what was shared before the revocation; the FHIR endpoints still serve them.";
    case "consent_partial":
      return "The patient shared only some categories: record reads of any other category answer 403 consent_scope_exceeded.";
    case "source_unavailable":
      return "One of the patient's two health systems is unavailable: record reads answer 200 with syncStatus partial and a source_unavailable warning, and hold the other system's records.";
    case null:
      return null;
  }
}

export function patientView(scenario: PatientScenario): PatientView {
  const patient = presentPatient(scenario);
  const links = patientLinks(scenario);
  return {
    scenario,
    patientId: scenario.patientId,
    subject: scenario.subject,
    name: patient.name ?? scenario.patientId,
    birthDate: patient.birth_date,
    gender: patient.gender,
    page: patientPagePath(scenario.patientId),
    json: [
      { label: "Normalized records (JSON)", href: links.records },
      { label: "Patient (JSON)", href: links.patient },
      { label: "Grouped FHIR record, legacy (JSON)", href: links.legacy_records },
    ],
    fhir: [
      { label: "FHIR Patient", href: links.fhir_patient },
      { label: "FHIR Bundle", href: links.fhir_bundle },
    ],
    behaviorNote: behaviorNote(scenario),
    withheld: CATEGORIES.filter((category) => !scenario.consentCategories.includes(category)).map((category) => ({ category, label: categoryLabel(category) })),
  };
}

/** The patient's records by category, in category order, each with its count and its JSON link. */
export function categoryViews(scenario: PatientScenario, limit = RECORDS_SHOWN): CategoryView[] {
  const categories = CATEGORIES.filter((category) => scenario.consentCategories.includes(category));
  const record = buildHealthRecord(scenario, categories);
  return categories.map((category) => {
    const records = (record.sections[category]?.records ?? []) as NormalizedRecord[];
    return {
      category,
      label: categoryLabel(category),
      fhir: LABELS.get(category)?.fhir ?? "",
      total: records.length,
      records: records.slice(0, limit),
      json: `${patientLinks(scenario).records}?categories=${category}`,
    };
  });
}

/** A scenario as the demo page lists it: its JSON manifest entry and, for a session scenario, what Connect answers. */
export function scenarioOutcome(scenario: Scenario): string | null {
  if (!scenario.sessionOutcome) return null;
  return scenario.sessionOutcome.status === "cancelled"
    ? "No patient: a Connect session simulated with this scenario ends cancelled, and the application receives nothing."
    : `No patient: a Connect session simulated with this scenario ends failed with failure_code ${scenario.sessionOutcome.failureCode}.`;
}

export const scenarioJson = (scenario: Scenario) => demoPath("scenarios", scenario.id);

/** The MCP client configuration for the demo's keyless MCP server at this deployment. */
export function demoMcpConfig(origin: string): string {
  return JSON.stringify({ mcpServers: { "chartkey-demo": { type: "http", url: `${origin}${demoPath("mcp")}` } } }, null, 2);
}
