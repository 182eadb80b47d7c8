import type { CapabilityStatement } from "fhir/r4";
import { capabilityStatement, withTestDataTag } from "@/lib/fhir";
import { SERVICE_VERSION } from "@/lib/http";
import { searchableTypes } from "./fhir-catalog";
import { demoPath } from "./links";

/** GET /fhir/metadata: what the demo FHIR server can do, computed from the types the scenario Bundles hold. */
export function getDemoFhirCapabilities(origin: string): CapabilityStatement {
  return withTestDataTag(
    capabilityStatement({
      date: SERVICE_VERSION,
      softwareName: "Chartkey demo FHIR server",
      description: "Read-only synthetic EHR over the demo scenario Bundles. Fictional data, not for clinical use.",
      baseUrl: origin + demoPath("fhir"),
      documentation: "No authentication. Consent and rate-limit scenario behaviors do not apply to FHIR routes.",
      searchTypes: searchableTypes(),
      searchParams: [
        {
          name: "patient",
          type: "reference",
          documentation: "A demo subject (u_...) or a FHIR Patient id. Omitted: the baseline-adult Bundle's resources.",
        },
      ],
      otherResources: [{ type: "Bundle", interaction: [{ code: "read" }], documentation: "Read a whole scenario Bundle by its id." }],
    }),
  );
}
