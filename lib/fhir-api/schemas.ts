import { z } from "zod";

export const fhirResourceSchema = z
  .looseObject({ resourceType: z.string(), id: z.string().optional(), meta: z.looseObject({}).optional() })
  .meta({ id: "FhirR4Resource", description: "A FHIR R4 resource as its health system sent it (https://hl7.org/fhir/R4/), with meta.versionId, meta.lastUpdated, meta.source and a meta.tag per contributing health system." });

export const fhirSearchsetSchema = z
  .looseObject({ resourceType: z.literal("Bundle"), type: z.literal("searchset"), total: z.number().int(), link: z.array(z.looseObject({ relation: z.string(), url: z.string() })) })
  .meta({ id: "FhirSearchset", description: "A FHIR R4 searchset Bundle: total, a self link and, while matches remain, a next link with a signed _cursor." });

export const fhirCapabilitySchema = z
  .looseObject({ resourceType: z.literal("CapabilityStatement"), fhirVersion: z.string() })
  .meta({ id: "FhirR4CapabilityStatement", description: "What this FHIR API serves: types, search parameters, includes and operations; instantiates US Core's server statement." });
