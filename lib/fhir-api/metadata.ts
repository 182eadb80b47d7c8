import type { CapabilityStatement, CapabilityStatementRestResource } from "fhir/r4";
import { SERVICE_VERSION } from "@/lib/http";
import { hasDateParam, INCLUDE_FIELDS, SERVED_TYPES, TOKEN_PARAMS } from "./served-types";

const US_CORE_SERVER = "http://hl7.org/fhir/us/core/CapabilityStatement/us-core-server";
const BULK_DATA_SERVER = "http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data";
/** The Bulk Data IG's kick-offs this API serves (lib/fhir-api/export): the system's and the consented Group's. */
const EXPORT = { name: "export", definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export" };
const GROUP_EXPORT = { name: "export", definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export" };

type SearchParam = NonNullable<CapabilityStatementRestResource["searchParam"]>[number];

/** The search parameters a type serves, exactly as lib/fhir-api/search-query.ts applies them. */
function searchParams(type: string): SearchParam[] {
  const params: SearchParam[] = [
    { name: "patient", type: "reference", documentation: "The subject (u-..., the Patient id). Required but for a delegated credential, which reads its own subject." },
    { name: "_id", type: "token", documentation: "The resource id; comma-separated for several." },
    { name: "_lastUpdated", type: "date", documentation: "When the record last changed here (meta.lastUpdated); ge, gt, le, lt, eq, sa, eb prefixes." },
  ];
  if (hasDateParam(type)) params.push({ name: "date", type: "date", documentation: "The record's clinical time; ge, gt, le, lt, eq, sa, eb prefixes." });
  for (const name of Object.keys(TOKEN_PARAMS[type] ?? {})) params.push({ name, type: "token", documentation: "system|code, |code or code; comma-separated alternatives." });
  return params;
}

/**
 * GET /fhir/metadata: the types, search parameters and operations this FHIR API serves, and that it instantiates
 * US Core's server CapabilityStatement for the resources the health systems sent as US Core.
 */
export function getFhirMetadata(base: string): CapabilityStatement {
  const includes = [...Object.keys(INCLUDE_FIELDS), "*"];
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: SERVICE_VERSION,
    publisher: "Chartkey",
    kind: "instance",
    instantiates: [US_CORE_SERVER, BULK_DATA_SERVER],
    software: { name: "Chartkey FHIR API", version: SERVICE_VERSION },
    implementation: { description: "Consented subjects' records as FHIR R4, as their health systems sent them.", url: base },
    fhirVersion: "4.0.1",
    format: ["application/fhir+json", "json"],
    rest: [
      {
        mode: "server",
        documentation:
          "Authorization: Bearer <API key> (ck_test_ or ck_live_), or a delegated credential (ck_agent_) for its subject and " +
          "categories. A type outside the subject's consent answers an empty searchset with an OperationOutcome entry; a read of it 404. " +
          "Page with the next link (_count, signed _cursor).",
        resource: [
          ...SERVED_TYPES.map((type): CapabilityStatementRestResource => ({
            type,
            interaction: [{ code: "read" as const }, { code: "search-type" as const }],
            versioning: "versioned" as const,
            readHistory: false,
            searchInclude: includes.map((param) => `${type}:${param}`),
            searchParam: searchParams(type),
            ...(type === "Patient" ? { operation: [{ name: "everything", definition: "http://hl7.org/fhir/OperationDefinition/Patient-everything" }] } : {}),
          })),
          {
            type: "Group",
            documentation: "One Group, consented: every subject sharing with the application, in the key's environment. Only its $export is served.",
            operation: [GROUP_EXPORT],
          },
        ],
        operation: [EXPORT],
      },
    ],
  };
}
