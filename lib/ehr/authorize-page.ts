import type { AuthorizationRequest } from "./authorization-request";
import { escapeHtml } from "@/lib/http";
import type { EhrPatient } from "./patients";
import { LAUNCH_PATIENT, OFFLINE_ACCESS } from "./scopes";

/** The request's parameters the form carries back, so the POST is checked exactly as the GET was. */
export const FORWARDED_PARAMETERS = ["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "scope", "aud", "on_behalf_of"] as const;

/** FHIR resource types in the words a patient uses for that part of their record. */
const RECORD_PARTS: Record<string, string> = {
  AllergyIntolerance: "allergies",
  Condition: "conditions and diagnoses",
  Coverage: "insurance coverage",
  DiagnosticReport: "test reports",
  DocumentReference: "documents and clinical notes",
  Encounter: "visits",
  ExplanationOfBenefit: "insurance claims",
  Claim: "insurance claims",
  Immunization: "immunizations",
  Medication: "medications",
  MedicationRequest: "medications",
  MedicationStatement: "medications",
  Observation: "lab results and vital signs",
  Patient: "your name, birth date and contact details",
  Procedure: "procedures",
};

/** What each granted scope lets the application do, in the patient's words. */
export function scopeSentences(scope: string): string[] {
  const scopes = scope.split(" ");
  const types = scopes.filter((item) => item.startsWith("patient/")).map((item) => item.slice("patient/".length).split(".")[0] ?? "");
  const parts = [...new Set(types.map((type) => RECORD_PARTS[type] ?? type))];
  const sentences = [types.includes("*") ? "Read your whole health record here" : `Read these parts of your record: ${parts.join(", ")}`];
  if (scopes.includes(LAUNCH_PATIENT)) sentences.push("Know which patient record you chose");
  if (scopes.includes(OFFLINE_ACCESS)) sentences.push("Keep reading it after you leave, until you or the application end the access");
  return sentences;
}

function patientChoice(patient: EhrPatient, index: number, selected: string | null | undefined): string {
  const id = `patient-${index}`;
  const born = patient.birthDate ? `Born ${escapeHtml(patient.birthDate)}` : "Birth date not recorded";
  return `<label class="patient" for="${id}">
<input type="radio" id="${id}" name="patient" value="${escapeHtml(patient.patientKey)}" required${selected === patient.patientKey ? " checked" : ""} aria-describedby="${id}-detail">
<span><span>${escapeHtml(patient.displayName)}</span><span class="detail" id="${id}-detail">${born} · record ${escapeHtml(patient.fhirPatientId)}</span></span>
</label>`;
}

export type ConsentPageInput = {
  request: AuthorizationRequest;
  patients: EhrPatient[];
  /** The original parameters, forwarded as hidden fields. */
  parameters: URLSearchParams;
  selected?: string | null;
  problem?: string | null;
};

/**
 * The synthetic sign-in and consent page: who asks, for what, which fictional patient to sign in as, then Allow
 * or Deny. Deny skips the browser's "choose a patient" check (formnovalidate): refusing needs no choice.
 */
export function consentPageBody({ request, patients, parameters, selected = null, problem = null }: ConsentPageInput): string {
  const { provider, client } = request;
  // One fictional patient is the only possible choice: chosen already, so Allow needs no extra tap.
  const chosen = selected ?? (patients.length === 1 ? patients[0]?.patientKey : null);
  const asker = request.onBehalfOf
    ? `<strong>${escapeHtml(request.onBehalfOf)}</strong>, through ${escapeHtml(client.name)}, is asking to:`
    : `<strong>${escapeHtml(client.name)}</strong> is asking to:`;
  const hidden = FORWARDED_PARAMETERS.flatMap((name) => {
    const value = parameters.get(name);
    return value === null ? [] : [`<input type="hidden" name="${name}" value="${escapeHtml(value)}">`];
  }).join("\n");
  return `<div class="card">
<p class="brand">${escapeHtml(provider.name)} · ${escapeHtml(provider.city)}, ${escapeHtml(provider.state)}</p>
<h1>Sign in to ${escapeHtml(provider.name)}</h1>
<p class="notice">A synthetic health system of the Chartkey sandbox: fictional patients, no password. Choosing a patient stands in for signing in.</p>
<p>${asker}</p>
<ul class="scopes">${scopeSentences(request.scope).map((sentence) => `<li>${escapeHtml(sentence)}</li>`).join("")}</ul>
${problem ? `<p class="error" role="alert" id="problem">${escapeHtml(problem)}</p>` : ""}
<form method="post" action="/ehr/${encodeURIComponent(provider.id)}/authorize">
${hidden}
<fieldset${problem ? ' aria-describedby="problem"' : ""}>
<legend>Choose a patient</legend>
${patients.map((patient, index) => patientChoice(patient, index, chosen)).join("\n")}
</fieldset>
<div class="actions">
<button type="submit" class="allow" name="decision" value="allow">Allow</button>
<button type="submit" class="deny" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
</div>`;
}

export function errorPageBody(message: string): string {
  return `<div class="card">
<h1>This sign-in request cannot continue</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Nothing was shared. Go back to the application that sent you here and start again.</p>
</div>`;
}
