import { requireEhrAccess, type EhrAccess } from "./bearer-access";
import { answerInjectedFault } from "./fault-injection";
import { ehrProviderOr404 } from "./providers";

/**
 * What every FHIR request but metadata goes through: a known health system, a valid token for one of its
 * patients, then any fault the tests injected for that patient (so a retried request re-presents its token).
 */
export function authorizeFhirRequest(providerId: string, request: Request): EhrAccess {
  ehrProviderOr404(providerId);
  const access = requireEhrAccess(providerId, request);
  answerInjectedFault(providerId, access.patient.patientKey);
  return access;
}
