export { capabilityStatement, type CapabilityOptions, type SearchParamDeclaration } from "./capability-statement";
export { FHIR_JSON } from "./content-type";
export { operationOutcome, operationOutcomeResponse } from "./operation-outcome";
export { referencesAny } from "./references";
export { searchsetBundle, type SearchsetOptions } from "./searchset";
export { FHIR_TEST_DATA_TAG, withTestDataTag } from "./test-data-tag";
export {
  CONTEXT_TYPES,
  contextFhirId,
  isContextType,
  literalReference,
  patientFhirId,
  platformIdOf,
  recordFhirId,
  storedResource,
  withReferencesRewritten,
  type ContextType,
  type ReferenceTargets,
} from "./stored-resource";
