import { ApiError } from "@/lib/http";
import { verifyAccessToken } from "./access-tokens";
import { findEhrPatient, type EhrPatient } from "./patients";
import { ehrEndpoints } from "./providers";
import { scopeAllows, type Interaction } from "./scopes";

/** Who a FHIR request is from: the patient its token was issued for and the scopes it carries. */
export type EhrAccess = { patient: EhrPatient; scope: string; clientId: string };

/** RFC 6750 §3: every 401 names the scheme and realm, and says why when a token was sent. */
function challenge(providerId: string, error?: { code: string; description: string }): Record<string, string> {
  const realm = `realm="${ehrEndpoints(providerId).fhirBase}"`;
  const detail = error ? `, error="${error.code}", error_description="${error.description.replace(/"/g, "'")}"` : "";
  return { "WWW-Authenticate": `Bearer ${realm}${detail}` };
}

/**
 * The bearer token of a FHIR request, verified: issued by this health system, unexpired, for a patient that still
 * exists. The FHIR handlers call this rather than the route kit's authentication step, because the route kit sits
 * below the domains and cannot import this one back.
 */
export function requireEhrAccess(providerId: string, request: Request): EhrAccess {
  const authorization = request.headers.get("authorization") ?? "";
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  if (!match?.[1]) {
    throw new ApiError("invalid_token", "A Bearer access token from this health system's token endpoint is required.", {
      headers: challenge(providerId),
    });
  }
  const checked = verifyAccessToken(match[1]);
  const refuse = (description: string) =>
    new ApiError("invalid_token", description, { headers: challenge(providerId, { code: "invalid_token", description }) });
  if (!checked.valid) throw refuse(checked.reason);
  if (checked.claims.providerId !== providerId) throw refuse("The access token was issued by another health system.");
  const patient = findEhrPatient(providerId, checked.claims.patientKey);
  if (!patient) throw refuse("The access token's patient no longer exists.");
  return { patient, scope: checked.claims.scope, clientId: checked.claims.clientId };
}

/** 403 insufficient_scope unless the token's scopes allow the interaction on the type. */
export function requireScope(providerId: string, access: EhrAccess, resourceType: string, interaction: Interaction): void {
  if (scopeAllows(access.scope, resourceType, interaction)) return;
  const description = `The token's scope (${access.scope}) does not allow ${interaction} of ${resourceType}.`;
  throw new ApiError("insufficient_scope", description, {
    headers: challenge(providerId, { code: "insufficient_scope", description }),
  });
}
