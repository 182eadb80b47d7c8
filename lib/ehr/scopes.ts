/**
 * SMART App Launch scopes this synthetic health system grants: `launch/patient` (the patient picked on the
 * authorization page becomes the token's `patient`), `offline_access` (a refresh token), and patient-level read
 * scopes in both SMART syntaxes: v1 `patient/Observation.read` and v2 `patient/Observation.rs` (or `.r`, `.s`
 * alone), with `*` for every type. Anything else requested (write scopes, `user/`, `openid`, v2 query
 * parameters) is left out of the grant, as OAuth lets a server grant less than asked.
 */
export const LAUNCH_PATIENT = "launch/patient";
export const OFFLINE_ACCESS = "offline_access";

export type Interaction = "read" | "search";

type ResourceGrant = { resourceType: string; interactions: Interaction[] };

const PATIENT_SCOPE = /^patient\/(\*|[A-Z][A-Za-z]{1,63})\.(read|rs|r|s)$/;

function resourceGrant(scope: string): ResourceGrant | undefined {
  const match = PATIENT_SCOPE.exec(scope);
  if (!match) return undefined;
  const [, resourceType = "", permissions = ""] = match;
  const interactions: Interaction[] =
    permissions === "read" || permissions === "rs" ? ["read", "search"] : permissions === "r" ? ["read"] : ["search"];
  return { resourceType, interactions };
}

/** The scopes of a request this server grants, in the order asked, without repeats. */
export function grantableScopes(requested: string): string[] {
  const scopes = requested.split(" ").filter((scope) => scope !== "");
  return [...new Set(scopes.filter((scope) => scope === LAUNCH_PATIENT || scope === OFFLINE_ACCESS || resourceGrant(scope)))];
}

export function hasResourceScope(scopes: readonly string[]): boolean {
  return scopes.some((scope) => resourceGrant(scope) !== undefined);
}

/** Whether a granted scope string lets its holder perform `interaction` on resources of `resourceType`. */
export function scopeAllows(scope: string, resourceType: string, interaction: Interaction): boolean {
  return scope.split(" ").some((granted) => {
    const grant = resourceGrant(granted);
    return grant !== undefined && (grant.resourceType === "*" || grant.resourceType === resourceType) && grant.interactions.includes(interaction);
  });
}

/** Scopes supported, as `.well-known/smart-configuration` lists them. */
export const SCOPES_SUPPORTED = [LAUNCH_PATIENT, OFFLINE_ACCESS, "patient/*.read", "patient/*.rs"];
