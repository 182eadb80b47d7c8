import type { Coding } from "fhir/r4";

/** Every demo response is marked as fictional: a header on every response and a field in every JSON body. */
export const DATA_NOTICE = "Fictional synthetic data for demonstration only. Not for clinical use.";
export const DATA_NOTICE_HEADER = "X-Data-Notice";

/** HL7 v3 ActReason HTEST ("test health data"): the standard FHIR security tag for data that is not real. */
export const FHIR_TEST_DATA_TAG: Coding = {
  system: "http://terminology.hl7.org/CodeSystem/v3-ActReason",
  code: "HTEST",
  display: "test health data",
};
