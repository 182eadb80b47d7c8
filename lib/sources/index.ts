// Health-system sources: the SMART on FHIR client the Connect flow and the import jobs share, for sandbox and
// live providers alike.
export { AUTHORIZATION_MINUTES, beginAuthorization, scopeForCategories, type BeginAuthorizationInput, type BegunAuthorization } from "./begin-authorization";
export { completeAuthorization, type CompleteAuthorizationInput, type CompletedAuthorization } from "./complete-authorization";
export {
  fetchPatientResourcePages,
  fetchPatientResources,
  importedResourceTypes,
  resourceKey,
  resourcesInOrder,
  type FetchedPatientRecord,
  type FetchOptions,
  type SourcePage,
} from "./fetch-patient-resources";
export { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
export { narrowedScope, narrowSourceScope } from "./narrow-source-scope";
export { oauthClient, tokenRequestOptions } from "./oauth-client";
export { findProvider, type ProviderRow } from "./providers";
export { refreshSourceTokens } from "./refresh-access-token";
export { withSourceRefreshLock } from "./refresh-lock";
export { backoffMs, retryAfterMs } from "./retrying-fetch";
export { ensureSandboxProviders } from "./sandbox-providers";
export { grantBroaderThan, scopeSyntaxFor } from "./smart-scopes";
export { discoverSmartServer, smartConfigurationSchema, type SmartServer } from "./smart-discovery";
export { REAUTHORIZATION_CODES, REAUTHORIZATION_ERROR_PREFIXES, SourceError, sourceWarningCode, type SourceErrorCode } from "./source-error";
export { openSourceTokens, sealSourceTokens, storeSourceTokens, type SealedSourceTokens, type SmartTokens } from "./source-tokens";
