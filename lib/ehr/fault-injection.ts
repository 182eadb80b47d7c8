import { ApiError } from "@/lib/http";
import { processState } from "@/lib/process-state";

/**
 * Test hook: makes a health system's FHIR API refuse the next requests of one patient, so clients' retries can
 * be exercised end to end (429 with Retry-After, or 503). It is in-process state, set only by code running in the
 * same process (tests, and the sandbox controls); no request parameter or header can set it. One store per
 * process: the code that sets a fault and the FHIR route that must answer it may be different copies of this module.
 */
export type EhrFault = { status: 429 | 503; count: number; retryAfterSeconds: number };

function faults(): Map<string, EhrFault> {
  return processState("ehr.faults", () => new Map<string, EhrFault>());
}

const keyOf = (providerId: string, patientKey: string) => `${providerId}\u0000${patientKey}`;

/** The next `count` FHIR requests for the patient (after their token is accepted) answer `status`. */
export function injectEhrFault(providerId: string, patientKey: string, fault: Partial<EhrFault> = {}): void {
  faults().set(keyOf(providerId, patientKey), { status: fault.status ?? 429, count: fault.count ?? 1, retryAfterSeconds: fault.retryAfterSeconds ?? 1 });
}

export function clearEhrFaults(): void {
  faults().clear();
}

/** Throws the injected fault if one is pending for the patient, spending one of its requests. */
export function answerInjectedFault(providerId: string, patientKey: string): void {
  const key = keyOf(providerId, patientKey);
  const fault = faults().get(key);
  if (!fault) return;
  if (fault.count <= 1) faults().delete(key);
  else faults().set(key, { ...fault, count: fault.count - 1 });
  const headers = { "Retry-After": String(fault.retryAfterSeconds) };
  if (fault.status === 429) throw new ApiError("rate_limited", "Too many requests for this patient; retry after the Retry-After delay.", { headers });
  throw new ApiError("sandbox_unavailable", "The health system is temporarily unavailable; retry later.", { headers });
}
