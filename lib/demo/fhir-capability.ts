import type { CapabilityStatement } from "fhir/r4";
import { SERVICE_VERSION } from "@/lib/http/headers";
import { searchableTypes } from "./fhir-catalog";
import { withTestDataTag } from "./fhir-tag";
import { demoPath } from "./links";

/** GET /fhir/metadata: what the demo FHIR server can do, computed from the types the scenario Bundles hold. */
export function capabilityStatement(origin: string): CapabilityStatement {
  return withTestDataTag({
    resourceType: "CapabilityStatement",
    status: "active",
    // The date of the response contract this server implements.
    date: SERVICE_VERSION,
    publisher: "Chartkey",
    kind: "instance",
    software: { name: "Chartkey demo FHIR server" },
    implementation: {
      description: "Read-only synthetic EHR over the demo scenario Bundles. Fictional data, not for clinical use.",
      url: origin + demoPath("fhir"),
    },
    fhirVersion: "4.0.1",
    format: ["json"],
    rest: [
      {
        mode: "server",
        documentation: "No authentication. Consent and rate-limit scenario behaviors do not apply to FHIR routes.",
        resource: [
          ...searchableTypes().map((type) => ({
            type,
            interaction: [{ code: "read" as const }, { code: "search-type" as const }],
            searchParam: [
              {
                name: "patient",
                type: "reference" as const,
                documentation: "A demo subject (u_...) or a FHIR Patient id. Omitted: the baseline-adult Bundle's resources.",
              },
            ],
          })),
          { type: "Bundle", interaction: [{ code: "read" as const }], documentation: "Read a whole scenario Bundle by its id." },
        ],
      },
    ],
  });
}
