// Synthetic health systems: a SMART on FHIR server (authorization page, token endpoint, FHIR R4 API) per fictional
// provider of the fixtures, served under /ehr/{providerId}.
export { ACCESS_TOKEN_SECONDS } from "./access-tokens";
export { AUTHORIZATION_CODE_SECONDS } from "./authorization-codes";
export { decideEhrAuthorization, showEhrAuthorization } from "./authorize";
export { isRegisteredRedirectUri, SANDBOX_CLIENT_ID, SANDBOX_PUBLIC_CLIENT_ID, sandboxClientSecret } from "./clients";
export { clearEhrFaults, injectEhrFault, type EhrFault } from "./fault-injection";
export { getEhrCapabilities } from "./fhir-capability";
export { patientResources, searchableTypes, servedResourceText } from "./fhir-data";
export { readEhr } from "./fhir-read";
export { authorizeFhirRequest } from "./fhir-request";
export { searchEhr } from "./fhir-search";
export { issueAuthorizationCodeDirectly } from "./issue-code-directly";
export { EHR_OAUTH_PROFILE, OAuthError } from "./oauth-errors";
export * from "./operations";
export { advanceEhrPatientPhase, currentEhrPatientPhase } from "./patient-phase";
export { ehrPatients, findEhrPatient, simulatedEhrPatientKey, type EhrPatient } from "./patients";
export { ehrEndpoints, type EhrEndpoints } from "./providers";
export { revokeEhrToken, revokeEhrTokenOperation } from "./revoke";
export { scopeAllowsResource } from "./scopes";
export { smartConfiguration } from "./smart-configuration";
export { requestEhrToken } from "./token-endpoint";
