/**
 * SMART App Launch scopes this synthetic health system grants: `launch/patient` (the patient picked on the
 * authorization page becomes the token's `patient`), `offline_access` (a refresh token), and patient-level read
 * scopes in both SMART syntaxes: v1 `patient/Observation.read` and v2 `patient/Observation.rs` (or `.r`, `.s`
 * alone), with `*` for every type, and v2 scopes narrowed by the `category` search parameter
 * (`patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory`, several
 * values separated by commas): the holder reads and finds only the type's resources with one of those categories.
 * Anything else requested (write scopes, `user/`, `openid`, other v2 query parameters) is left out of the grant,
 * as OAuth lets a server grant less than asked.
 */
export const LAUNCH_PATIENT = "launch/patient";
export const OFFLINE_ACCESS = "offline_access";

export type Interaction = "read" | "search";

/** `categories`: the `system|code` (or `code`) tokens a v2 scope narrows the type to; null for the whole type. */
type ResourceGrant = { resourceType: string; interactions: Interaction[]; categories: string[] | null };

const PATIENT_SCOPE = /^patient\/(\*|[A-Z][A-Za-z]{1,63})\.(read|rs|r|s)(?:\?category=([^\s&=?]{1,500}))?$/;

function resourceGrant(scope: string): ResourceGrant | undefined {
  const match = PATIENT_SCOPE.exec(scope);
  if (!match) return undefined;
  const [, resourceType = "", permissions = "", query] = match;
  // v1 `.read` takes no query; a narrowed scope names a type, not `*`.
  if (query !== undefined && (permissions === "read" || resourceType === "*")) return undefined;
  const interactions: Interaction[] =
    permissions === "read" || permissions === "rs" ? ["read", "search"] : permissions === "r" ? ["read"] : ["search"];
  const categories = query === undefined ? null : query.split(",").filter((token) => token !== "");
  if (categories !== null && categories.length === 0) return undefined;
  return { resourceType, interactions, categories };
}

/** FHIR token search semantics for a CodeableConcept list: `system|code`, `code` (any system) or `|code` (none). */
export function hasCategoryToken(resource: { category?: unknown }, token: string): boolean {
  const bar = token.indexOf("|");
  const system = bar < 0 ? undefined : token.slice(0, bar);
  const code = bar < 0 ? token : token.slice(bar + 1);
  const concepts = Array.isArray(resource.category) ? resource.category : resource.category ? [resource.category] : [];
  return concepts.some((concept: { coding?: { system?: string; code?: string }[] }) =>
    (concept?.coding ?? []).some((coding) => coding.code === code && (system === undefined || (system === "" ? coding.system === undefined : coding.system === system))),
  );
}

/** The scopes of a request this server grants, in the order asked, without repeats. */
export function grantableScopes(requested: string): string[] {
  const scopes = requested.split(" ").filter((scope) => scope !== "");
  return [...new Set(scopes.filter((scope) => scope === LAUNCH_PATIENT || scope === OFFLINE_ACCESS || resourceGrant(scope)))];
}

export function hasResourceScope(scopes: readonly string[]): boolean {
  return scopes.some((scope) => resourceGrant(scope) !== undefined);
}

function grantsOf(scope: string, resourceType: string, interaction: Interaction): ResourceGrant[] {
  return scope.split(" ").flatMap((granted) => {
    const grant = resourceGrant(granted);
    return grant !== undefined && (grant.resourceType === "*" || grant.resourceType === resourceType) && grant.interactions.includes(interaction) ? [grant] : [];
  });
}

/** Whether a granted scope string lets its holder perform `interaction` on resources of `resourceType` (some of them, for a narrowed scope). */
export function scopeAllows(scope: string, resourceType: string, interaction: Interaction): boolean {
  return grantsOf(scope, resourceType, interaction).length > 0;
}

/**
 * Whether a granted scope string lets its holder read or find this resource: a scope for its type (or `*`) whole,
 * or one narrowed to a category the resource has.
 */
export function scopeAllowsResource(scope: string, resource: { resourceType: string; category?: unknown }, interaction: Interaction): boolean {
  return grantsOf(scope, resource.resourceType, interaction).some((grant) => grant.categories === null || grant.categories.some((token) => hasCategoryToken(resource, token)));
}

/** Scopes supported, as `.well-known/smart-configuration` lists them (v2 scopes may be narrowed by `?category=`). */
export const SCOPES_SUPPORTED = [LAUNCH_PATIENT, OFFLINE_ACCESS, "patient/*.read", "patient/*.rs"];
