import { PLATFORM_PROFILE, type Profile } from "@/lib/api";
import { operationOutcomeResponse } from "@/lib/fhir";

/**
 * `/api/v1/fhir`: the platform family (keys and delegated credentials, limits, request log, Service-Version), its
 * errors written as FHIR OperationOutcome resources carrying the error code, as FHIR clients expect.
 */
export const PLATFORM_FHIR_PROFILE: Profile = { ...PLATFORM_PROFILE, errorResponse: operationOutcomeResponse };
