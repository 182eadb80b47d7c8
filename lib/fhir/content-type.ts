/** FHIR's JSON media type: what FHIR servers answer and FHIR clients send in Accept. */
export const FHIR_JSON = "application/fhir+json";
