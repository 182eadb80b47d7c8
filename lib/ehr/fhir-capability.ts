import type { CapabilityStatement } from "fhir/r4";
import { capabilityStatement, withTestDataTag } from "@/lib/fhir";
import { SERVICE_VERSION } from "@/lib/http";
import { searchableTypes } from "./fhir-data";
import { ehrEndpoints, ehrProviderOr404 } from "./providers";

/** GET [base]/metadata: the types served and, per SMART App Launch §"FHIR Capability", the OAuth endpoints. */
export function getEhrCapabilities(providerId: string): CapabilityStatement {
  const provider = ehrProviderOr404(providerId);
  const endpoints = ehrEndpoints(providerId);
  return withTestDataTag(
    capabilityStatement({
      date: SERVICE_VERSION,
      softwareName: `${provider.name} synthetic EHR (Chartkey sandbox)`,
      description: `Read-only SMART on FHIR server of ${provider.name}, a fictional health system. Synthetic data, not for clinical use.`,
      baseUrl: endpoints.fhirBase,
      documentation: "SMART App Launch: a Bearer access token from the token endpoint, for one patient, is required on every request but this one.",
      searchTypes: searchableTypes(providerId),
      searchParams: [
        { name: "patient", type: "reference", documentation: "The token's patient (implied when omitted); any other patient is refused." },
        { name: "_count", type: "number", documentation: "Page size; further pages follow the Bundle's next link." },
      ],
      security: {
        cors: false,
        service: [
          {
            coding: [{ system: "http://terminology.hl7.org/CodeSystem/restful-security-service", code: "SMART-on-FHIR" }],
            text: "OAuth2 using SMART-on-FHIR profile (see http://docs.smarthealthit.org)",
          },
        ],
        extension: [
          {
            url: "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
            extension: [
              { url: "authorize", valueUri: endpoints.authorize },
              { url: "token", valueUri: endpoints.token },
            ],
          },
        ],
      },
    }),
  );
}
