import type { AuthorizationRequest } from "./authorization-request";
import { escapeHtml } from "@/lib/http";
import { LOCALES, longDate, messagesFor, translatorFor, type Locale, type Messages, type Translator } from "@/lib/i18n";
import type { EhrPatient } from "./patients";
import { LAUNCH_PATIENT, OFFLINE_ACCESS } from "./scopes";

/** The request's parameters the form carries back, so the POST is checked exactly as the GET was. */
export const FORWARDED_PARAMETERS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "scope",
  "aud",
  "on_behalf_of",
  "ui_locales",
] as const;

type RecordPart = keyof Messages["ehr"]["parts"];
function isRecordPart(type: string): type is RecordPart {
  return Object.hasOwn(messagesFor("en").ehr.parts, type);
}

/** The types a record only names (a visit, a care team member, a place, a drug, a sample), listed after the records. */
const CONTEXT_TYPES = new Set(["Encounter", "Practitioner", "Organization", "Location", "Medication", "Specimen"]);

/**
 * One resource scope in the patient's words: the type as a part of a record, or, for a SMART v2 scope narrowed by
 * category, that category of it (`patient/Observation.rs?category=…|laboratory`: lab results).
 */
function scopePart(type: string, category: string | null, locale: Locale, t: Translator): string {
  const part = isRecordPart(type) ? t(`ehr.parts.${type}`) : type;
  if (category === null) return part;
  const narrowed = messagesFor(locale).ehr.narrowedParts as Record<string, string>;
  const code = category.slice(category.indexOf("|") + 1);
  return narrowed[`${type}|${code}`] ?? t("ehr.narrowedOther", { part, category: code });
}

/**
 * What each granted scope lets the application do, in the patient's words: the parts of the record asked for (FHIR
 * types, or the categories of a type a v2 scope is narrowed to), then the context those records name, each once.
 */
export function scopeSentences(scope: string, t: Translator = translatorFor("en"), locale: Locale = "en"): string[] {
  const scopes = scope.split(" ");
  const records: string[] = [];
  const context: string[] = [];
  let whole = false;
  for (const item of scopes) {
    if (!item.startsWith("patient/")) continue;
    const [resource = "", query] = item.slice("patient/".length).split("?");
    const type = resource.split(".")[0] ?? "";
    if (type === "*") whole = true;
    const categories = query === undefined ? [null] : (new URLSearchParams(query).get("category") ?? "").split(",").filter((value) => value !== "");
    for (const category of categories) (CONTEXT_TYPES.has(type) ? context : records).push(scopePart(type, category, locale, t));
  }
  const unique = (parts: string[]) => [...new Set(parts)];
  const sentences: string[] = [];
  if (whole) sentences.push(t("ehr.readWhole"));
  else if (records.length === 0) sentences.push(t("ehr.readParts", { parts: unique(context).join(", ") }));
  else {
    sentences.push(t("ehr.readParts", { parts: unique(records).join(", ") }));
    const named = unique(context).filter((part) => !records.includes(part));
    if (named.length > 0) sentences.push(t("ehr.readContext", { parts: named.join(", ") }));
  }
  if (scopes.includes(LAUNCH_PATIENT)) sentences.push(t("ehr.knowPatient"));
  if (scopes.includes(OFFLINE_ACCESS)) sentences.push(t("ehr.offline"));
  return sentences;
}

/** What tells one fictional patient from another in the picker: birth date, sex, home town (never an internal id). */
export function patientDetails(patient: EhrPatient, locale: Locale, t: Translator): string {
  const born = patient.birthDate ? t("ehr.born", { date: longDate(locale, new Date(`${patient.birthDate}T00:00:00Z`)) }) : t("ehr.noBirthDate");
  const sex = patient.gender === "female" || patient.gender === "male" ? t(`ehr.sex.${patient.gender}`) : null;
  const town = patient.city ? [patient.city, patient.state].filter(Boolean).join(", ") : null;
  return [born, sex, town].filter((part): part is string => part !== null).join(" · ");
}

function patientChoice(patient: EhrPatient, index: number, selected: string | null | undefined, locale: Locale, t: Translator): string {
  const id = `patient-${index}`;
  return `<label class="patient" for="${id}">
<input type="radio" id="${id}" name="patient" value="${escapeHtml(patient.patientKey)}" required${selected === patient.patientKey ? " checked" : ""} aria-describedby="${id}-detail">
<span><span>${escapeHtml(patient.displayName)}</span><span class="detail" id="${id}-detail">${escapeHtml(patientDetails(patient, locale, t))}</span></span>
</label>`;
}

/** Each language's name in itself (English, Español), as the switcher shows it whatever the page's language. */
const LANGUAGE_NAMES = Object.fromEntries(LOCALES.map((option) => [option, translatorFor(option)(`language.${option}`)])) as Record<Locale, string>;

/** English / Español as links to this same request in the other language (`ui_locales`): the page has no script. */
function languageLinks(parameters: URLSearchParams, providerId: string, locale: Locale, t: Translator): string {
  const links = LOCALES.map((option) => {
    const name = LANGUAGE_NAMES[option];
    if (option === locale) return `<span lang="${option}" aria-current="true">${escapeHtml(name)}</span>`;
    const target = new URLSearchParams(FORWARDED_PARAMETERS.flatMap((key) => (parameters.has(key) ? [[key, parameters.get(key) as string]] : [])));
    target.set("ui_locales", option);
    return `<a lang="${option}" hreflang="${option}" href="/ehr/${encodeURIComponent(providerId)}/authorize?${escapeHtml(target.toString())}">${escapeHtml(name)}</a>`;
  });
  return `<nav class="languages" aria-label="${escapeHtml(t("language.label"))}">${links.join(" · ")}</nav>`;
}

export type ConsentPageInput = {
  request: AuthorizationRequest;
  patients: EhrPatient[];
  /** The original parameters, forwarded as hidden fields. */
  parameters: URLSearchParams;
  locale: Locale;
  selected?: string | null;
  problem?: string | null;
};

/**
 * The synthetic sign-in and consent page: who asks (the application, through Chartkey), for what parts of the record,
 * which fictional patient to sign in as, then Allow or Deny. Deny skips the browser's "choose a patient" check
 * (formnovalidate): refusing needs no choice.
 */
export function consentPageBody({ request, patients, parameters, locale, selected = null, problem = null }: ConsentPageInput): string {
  const t = translatorFor(locale);
  const { provider, client } = request;
  // One fictional patient is the only possible choice: chosen already, so Allow needs no extra tap.
  const chosen = selected ?? (patients.length === 1 ? patients[0]?.patientKey : null);
  const strong = (chunks: string) => `<strong>${chunks}</strong>`;
  const asker = request.onBehalfOf
    ? t.markup("ehr.askingOnBehalf", { b: strong, application: escapeHtml(request.onBehalfOf), client: escapeHtml(client.name) })
    : t.markup("ehr.asking", { b: strong, client: escapeHtml(client.name) });
  const hidden = FORWARDED_PARAMETERS.flatMap((name) => {
    const value = parameters.get(name);
    return value === null ? [] : [`<input type="hidden" name="${name}" value="${escapeHtml(value)}">`];
  }).join("\n");
  return `<div class="card">
${languageLinks(parameters, provider.id, locale, t)}
<p class="brand">${escapeHtml(provider.name)} · ${escapeHtml(provider.city)}, ${escapeHtml(provider.state)}</p>
<h1>${escapeHtml(t("ehr.signInTo", { provider: provider.name }))}</h1>
<p class="notice">${escapeHtml(t("ehr.notice"))}</p>
<p>${asker}</p>
<ul class="scopes">${scopeSentences(request.scope, t, locale).map((sentence) => `<li>${escapeHtml(sentence)}</li>`).join("")}</ul>
${problem ? `<p class="error" role="alert" id="problem">${escapeHtml(problem)}</p>` : ""}
<form method="post" action="/ehr/${encodeURIComponent(provider.id)}/authorize">
${hidden}
<fieldset${problem ? ' aria-describedby="problem"' : ""}>
<legend>${escapeHtml(t("ehr.choosePatient"))}</legend>
${patients.map((patient, index) => patientChoice(patient, index, chosen, locale, t)).join("\n")}
</fieldset>
<div class="actions">
<button type="submit" class="allow" name="decision" value="allow">${escapeHtml(t("ehr.allow"))}</button>
<button type="submit" class="deny" name="decision" value="deny" formnovalidate>${escapeHtml(t("ehr.deny"))}</button>
</div>
</form>
</div>`;
}

export function errorPageBody(message: string, locale: Locale): string {
  const t = translatorFor(locale);
  return `<div class="card">
<h1>${escapeHtml(t("ehr.cannotContinue"))}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>${escapeHtml(t("ehr.nothingShared"))}</p>
</div>`;
}
