/** The FHIR R4 API over consented subjects (issue 52): /api/v1/fhir. Storage: lib/fhir/stored-resource.ts. */
export { type FhirReader } from "./access";
export { getFhirMetadata } from "./metadata";
export { FHIR_OPERATIONS, getFhirMetadataOperation, getFhirPatientEverythingOperation, readFhirPatientOperation, readFhirResourceOperation, searchFhirOperation } from "./operations";
export { PLATFORM_FHIR_PROFILE } from "./profile";
export { getFhirPatientEverything, readFhirPatient, readFhirResource } from "./read-fhir";
export { searchFhir } from "./search-fhir";
export * from "./export";
