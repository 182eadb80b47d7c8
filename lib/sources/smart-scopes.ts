import { CATEGORIES, readResourceTypesFor, type Category } from "@/lib/records";

/**
 * The SMART scopes the platform asks a health system for, by the categories a patient shares.
 *
 * SMART App Launch 2 (`permission-v2`) lets a scope name a search a type is narrowed by: `patient/Observation.rs?
 * category=…|laboratory` reads lab results and no other Observation. Where a category is only part of a FHIR type,
 * the v2 scope narrows that type by its `category` search parameter, as US Core codes it: labs and vital signs are
 * the laboratory and vital-signs Observations, and the lab reports their results name are the DiagnosticReports of
 * the LAB diagnostic service. Where a category is the whole type, the scope is the whole type: every
 * DocumentReference and every DiagnosticReport with a presented form is a documents record whatever its category
 * (a clinical note, an imaging or a lab report), so documents asks for the two types whole. The context types
 * (Encounter, Practitioner...) follow the categories that reference them (`readResourceTypesFor`).
 *
 * An Observation filed under another category than the one its code says (pulse oximetry filed as laboratory) is
 * read with the category its source gave it: a granular grant cannot follow the normalizer's codes.
 *
 * Servers without `permission-v2` get SMART v1 `.read` scopes of the same types: they name whole types, so the
 * patient's health system shows a broader request than the categories (the Connect review page says so), and
 * the import still keeps only the shared categories.
 */
export type ScopeSyntax = "v1" | "v2";

export const OBSERVATION_CATEGORY_SYSTEM = "http://terminology.hl7.org/CodeSystem/observation-category";
export const DIAGNOSTIC_SERVICE_SYSTEM = "http://terminology.hl7.org/CodeSystem/v2-0074";

/** The `category` search values (system|code) a category reads of a type it shares with others; absent: the whole type. */
const CATEGORY_FILTERS: Partial<Record<Category, Readonly<Record<string, string>>>> = {
  labs: { Observation: `${OBSERVATION_CATEGORY_SYSTEM}|laboratory`, DiagnosticReport: `${DIAGNOSTIC_SERVICE_SYSTEM}|LAB` },
  vitals: { Observation: `${OBSERVATION_CATEGORY_SYSTEM}|vital-signs` },
};

/** Types only read by id, never searched: the Patient itself and the C-CDA Binaries documents link. */
const READ_ONLY_TYPES = new Set(["Patient", "Binary"]);

export const LAUNCH_PATIENT_SCOPE = "launch/patient";
export const OFFLINE_ACCESS_SCOPE = "offline_access";

/**
 * The resource scopes an import of `categories` needs, in category order then context types: v1 `patient/{type}.read`,
 * or v2 `patient/{type}.rs` (`.r` for the types read by id only) narrowed by `category` where a category is part of a
 * type and no shared category needs the whole type.
 */
export function resourceScopesFor(categories: readonly Category[], syntax: ScopeSyntax): string[] {
  const types = readResourceTypesFor(categories);
  if (syntax === "v1") return types.map((type) => `patient/${type}.read`);
  const shared = CATEGORIES.filter((category) => categories.includes(category));
  return types.flatMap((type) => {
    const permission = READ_ONLY_TYPES.has(type) ? "r" : "rs";
    const filters = categoryFiltersOf(shared, type);
    if (filters === null) return [`patient/${type}.${permission}`];
    return filters.map((value) => `patient/${type}.${permission}?category=${value}`);
  });
}

/** The category filters the shared categories read `type` by, or null when one of them needs the whole type. */
function categoryFiltersOf(shared: readonly Category[], type: string): string[] | null {
  const filters: string[] = [];
  for (const category of shared) {
    const filter = CATEGORY_FILTERS[category]?.[type];
    if (filter !== undefined) filters.push(filter);
    else if (readResourceTypesFor([category]).includes(type)) return null;
  }
  return filters.length > 0 ? filters : null;
}

/** The whole scope asked at sign-in: the patient picked, a refresh token for continuous consent, the resource scopes. */
export function scopeForCategories(categories: readonly Category[], syntax: ScopeSyntax = "v1"): string {
  return [LAUNCH_PATIENT_SCOPE, OFFLINE_ACCESS_SCOPE, ...resourceScopesFor(categories, syntax)].join(" ");
}

/** Which syntax a server's SMART configuration capabilities take: v2 when it advertises `permission-v2`. */
export function scopeSyntaxFor(capabilities: readonly string[]): ScopeSyntax {
  return capabilities.includes("permission-v2") ? "v2" : "v1";
}

/** A patient resource scope, v1 or v2: its type, permissions and query (empty when none). */
const RESOURCE_SCOPE = /^(?:patient|user|system)\/([A-Za-z]+|\*)\.([a-z]+)(?:\?(.*))?$/;

/**
 * The `category` values a search of `type` must name under a granted scope: null when a granted scope reads the
 * whole type (v1 `.read`, v2 without a query, or `*`), else the categories of the type's granted v2 scopes (an empty
 * list when no scope grants the type at all). A scope narrowed by another search parameter than `category` is not
 * one this client asks for; it is taken as granting nothing.
 */
export function grantedCategoryFilter(scope: string, type: string): string[] | null {
  const values: string[] = [];
  for (const granted of scope.split(" ")) {
    const match = RESOURCE_SCOPE.exec(granted);
    if (!match || (match[1] !== type && match[1] !== "*")) continue;
    const query = match[3];
    if (query === undefined || query === "") return null;
    const parameters = new URLSearchParams(query);
    const category = parameters.get("category");
    if ([...parameters.keys()].length === 1 && category) values.push(...category.split(","));
  }
  return [...new Set(values)];
}

/**
 * Whether a granted scope reads more than an import of `categories` needs: a wildcard, a type none of them reads,
 * a type read whole that they need only some categories of (a v1 grant of Observation for lab results), or a
 * category they do not share. What the Connect flow tells a patient whose health system could not ask for less.
 */
export function grantBroaderThan(scope: string, categories: readonly Category[]): boolean {
  const types = readResourceTypesFor(categories);
  const needed = resourceScopesFor(categories, "v2");
  for (const granted of scope.split(" ")) {
    const match = RESOURCE_SCOPE.exec(granted);
    if (!match) continue;
    const [, type = "", , query] = match;
    if (type === "*" || !types.includes(type)) return true;
    const narrowed = needed.filter((item) => item.startsWith(`patient/${type}.`) && item.includes("?category="));
    if (narrowed.length === 0) continue;
    if (query === undefined || query === "") return true;
    const categoryOf = (item: string) => new URLSearchParams(item.slice(item.indexOf("?") + 1)).get("category");
    const values = (new URLSearchParams(query).get("category") ?? "").split(",");
    if (values.some((value) => !narrowed.some((item) => categoryOf(item) === value))) return true;
  }
  return false;
}
