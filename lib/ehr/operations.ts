import { z } from "zod";
import { defineOperation, FHIR_PROFILE, type OperationDeclaration } from "@/lib/api";
import { FHIR_JSON } from "@/lib/fhir";
import { EHR_OAUTH_PROFILE } from "./oauth-errors";
import { revokeEhrTokenOperation } from "./revoke";

/**
 * The synthetic health systems' operations, under `/ehr`: a SMART on FHIR server per fictional provider. They are
 * not part of the platform's or the demo's OpenAPI document (a SMART app discovers them from the SMART
 * configuration and the CapabilityStatement, as on any EHR); EHR_OPERATIONS is their registry, which the route ↔
 * declaration test checks. Paths are relative to `/ehr`.
 */

const EXAMPLE_PROVIDER = "riverbend-health";

const providerParams = z.object({
  providerId: z.string().describe("A synthetic health system (a fictional provider of the fixtures).").meta({ example: EXAMPLE_PROVIDER }),
});

const smartConfigurationSchema = z.object({
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string(),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  capabilities: z.array(z.string()),
});

const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  scope: z.string(),
  patient: z.string().describe("The FHIR id of the patient chosen on the authorization page (SMART launch context)."),
  refresh_token: z.string().optional().describe("Issued when the grant includes offline_access; single use, rotated on every refresh."),
});

const fhirResourceSchema = z.looseObject({ resourceType: z.string(), id: z.string().optional() });
const htmlSchema = z.string().describe("An HTML page.");

const BEARER =
  "Requires `Authorization: Bearer` with an access token from this health system's token endpoint; the token " +
  "reads only its own patient, and only the resource types its scopes name (401 invalid_token, 403 insufficient_scope).";

const smartConfigurationOperation = (path: string, operationId: string, where: string) =>
  defineOperation({
    profile: EHR_OAUTH_PROFILE,
    method: "GET",
    path,
    operationId,
    tag: "Synthetic EHR",
    summary: `SMART configuration (${where})`,
    description: "SMART App Launch 2.x discovery: the OAuth endpoints, scopes and capabilities of this health system.",
    auth: "none",
    params: providerParams,
    success: { status: 200, description: "The SMART configuration.", schema: smartConfigurationSchema },
    errors: ["not_found"],
  });

/** Where SMART App Launch puts it: under the FHIR base URL. */
export const getEhrSmartConfigurationOperation = smartConfigurationOperation("/{providerId}/fhir/.well-known/smart-configuration", "getEhrSmartConfiguration", "FHIR base");
/** The same document at the health system's root, for clients that look there. */
export const getEhrRootSmartConfigurationOperation = smartConfigurationOperation("/{providerId}/.well-known/smart-configuration", "getEhrRootSmartConfiguration", "root");

export const showEhrAuthorizationOperation = defineOperation({
  profile: EHR_OAUTH_PROFILE,
  method: "GET",
  path: "/{providerId}/authorize",
  operationId: "showEhrAuthorization",
  tag: "Synthetic EHR",
  summary: "Authorization page",
  description:
    "OAuth 2.0 authorization endpoint (authorization code, PKCE S256 and state required; scope must include " +
    "launch/patient and a patient read scope; aud, if sent, must be the FHIR base URL). An unknown client or an " +
    "unregistered redirect_uri shows an error page and never redirects; other errors redirect with error and state. " +
    "A valid request shows the patient picker with Allow and Deny.",
  auth: "none",
  params: providerParams,
  success: { status: 200, description: "The sign-in and consent page.", schema: htmlSchema, contentType: "text/html" },
  otherResponses: [{ status: 303, description: "An error redirect to the client's redirect_uri.", schema: z.null() }],
  errors: ["not_found", "invalid_request"],
});

export const decideEhrAuthorizationOperation = defineOperation({
  profile: EHR_OAUTH_PROFILE,
  method: "POST",
  path: "/{providerId}/authorize",
  operationId: "decideEhrAuthorization",
  tag: "Synthetic EHR",
  summary: "Allow or deny (the page's form)",
  description:
    "The authorization page's form (application/x-www-form-urlencoded): the request's parameters again, `patient` " +
    "(a patient key) and `decision` (allow or deny). Allow redirects (303) to redirect_uri with a single-use code " +
    "valid 60 seconds and the state; Deny redirects with error=access_denied and the state.",
  auth: "none",
  params: providerParams,
  success: { status: 303, description: "The redirect to the client with code and state, or error=access_denied.", schema: z.null() },
  otherResponses: [{ status: 400, description: "The page again, asking for a patient.", schema: htmlSchema, contentType: "text/html" }],
  errors: ["not_found", "invalid_request"],
});

export const requestEhrTokenOperation = defineOperation({
  profile: EHR_OAUTH_PROFILE,
  method: "POST",
  path: "/{providerId}/token",
  operationId: "requestEhrToken",
  tag: "Synthetic EHR",
  summary: "Token endpoint",
  description:
    "OAuth 2.0 token endpoint (application/x-www-form-urlencoded): grant_type authorization_code (code, " +
    "redirect_uri, code_verifier) or refresh_token (refresh_token, optional narrower scope). The confidential " +
    "client authenticates with client_secret_basic or client_secret_post; the public client sends client_id only. " +
    "Errors are RFC 6749 JSON ({ error, error_description }): 400, or 401 invalid_client.",
  auth: "none",
  params: providerParams,
  success: { status: 200, description: "Tokens for the chosen patient.", schema: tokenResponseSchema },
  errors: ["invalid_request", "invalid_grant"],
});

export const getEhrCapabilitiesOperation = defineOperation({
  profile: FHIR_PROFILE,
  method: "GET",
  path: "/{providerId}/fhir/metadata",
  operationId: "getEhrCapabilities",
  tag: "Synthetic EHR",
  summary: "FHIR R4 CapabilityStatement",
  description: "The types served and the SMART oauth-uris security extension; needs no token.",
  auth: "none",
  params: providerParams,
  success: { status: 200, description: "The CapabilityStatement.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found"],
});

export const searchEhrFhirOperation = defineOperation({
  profile: FHIR_PROFILE,
  method: "GET",
  path: "/{providerId}/fhir/{resourceType}",
  operationId: "searchEhrFhir",
  tag: "Synthetic EHR",
  summary: "Search one resource type for the token's patient",
  description: `A searchset of the token's patient's resources of the type, at the patient's current phase, paged by _count with next links. ${BEARER}`,
  auth: "none",
  params: providerParams.extend({ resourceType: z.string().describe("A FHIR resource type.").meta({ example: "Observation" }) }),
  query: z.object({
    patient: z.string().optional().describe("The token's patient (id or Patient/id); implied when omitted, and 403 for anyone else."),
    _id: z.string().max(8_000).optional().describe("Only resources with these ids (comma-separated), as FHIR's `_id` search parameter."),
    category: z
      .string()
      .max(2_000)
      .optional()
      .describe(
        "Only resources with one of these categories (comma-separated tokens: system|code, or code), as FHIR's `category` search parameter. A token narrowed by SMART v2 category scopes finds only the granted categories whatever is asked.",
      ),
    _count: z.coerce.number().int().min(1).max(1000).optional().describe("Page size; omitted, every match is on one page."),
    _offset: z.coerce.number().int().min(0).optional().describe("Matches skipped; carried by next links."),
  }),
  success: { status: 200, description: "The searchset.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found", "invalid_request", "invalid_token", "insufficient_scope", "subject_mismatch", "rate_limited"],
  headers: ["WWW-Authenticate", "Retry-After"],
});

export const readEhrFhirOperation = defineOperation({
  profile: FHIR_PROFILE,
  method: "GET",
  path: "/{providerId}/fhir/{resourceType}/{resourceId}",
  operationId: "readEhrFhir",
  tag: "Synthetic EHR",
  summary: "Read one of the token's patient's resources",
  description: `Another patient's resource is 404, like one that does not exist. ${BEARER}`,
  auth: "none",
  params: providerParams.extend({
    resourceType: z.string().describe("A FHIR resource type.").meta({ example: "Patient" }),
    resourceId: z.string().describe("The resource id.").meta({ example: "baseline-adult-patient" }),
  }),
  success: { status: 200, description: "The resource.", schema: fhirResourceSchema, contentType: FHIR_JSON },
  errors: ["not_found", "invalid_token", "insufficient_scope", "rate_limited"],
  headers: ["WWW-Authenticate", "Retry-After"],
});

/** Every /ehr operation, the registry the route ↔ declaration test checks. */
export const EHR_OPERATIONS: readonly OperationDeclaration[] = [
  getEhrSmartConfigurationOperation,
  getEhrRootSmartConfigurationOperation,
  showEhrAuthorizationOperation,
  decideEhrAuthorizationOperation,
  requestEhrTokenOperation,
  revokeEhrTokenOperation,
  getEhrCapabilitiesOperation,
  searchEhrFhirOperation,
  readEhrFhirOperation,
];
