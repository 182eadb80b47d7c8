import { ApiError } from "@/lib/http";
import { TEFCA_PATIENT_ID } from "./network";

/** A `patientId` other than the fixed fictional patient's is `synthetic_patient_required`. */
export function requireFixedPatient(patientId: string | undefined): void {
  if (patientId === undefined || patientId === TEFCA_PATIENT_ID) return;
  throw new ApiError("synthetic_patient_required", `Only the fixed fictional patient ${TEFCA_PATIENT_ID} is supported (GET /tefca/config); got ${patientId}.`);
}
