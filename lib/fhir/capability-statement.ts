import type { CapabilityStatement, CapabilityStatementRestResource } from "fhir/r4";

export type SearchParamDeclaration = { name: string; type: "reference" | "token" | "number" | "string" | "date"; documentation: string };

export type CapabilityOptions = {
  /** The date of the contract this server implements. */
  date: string;
  softwareName: string;
  description: string;
  /** The FHIR base URL, e.g. `https://host/demo/v1/fhir`. */
  baseUrl: string;
  /** How clients authenticate, or that they need not. */
  documentation: string;
  /** Types offering read and search-type, each with the same search parameters. */
  searchTypes: readonly string[];
  searchParams: readonly SearchParamDeclaration[];
  /** Resources with other interactions (a read-only Bundle, ...). */
  otherResources?: CapabilityStatementRestResource[];
  /** SMART on FHIR servers name their OAuth endpoints here. */
  security?: NonNullable<CapabilityStatement["rest"]>[number]["security"];
};

/** A read-only FHIR R4 server's CapabilityStatement (`GET [base]/metadata`). */
export function capabilityStatement(options: CapabilityOptions): CapabilityStatement {
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: options.date,
    publisher: "Chartkey",
    kind: "instance",
    software: { name: options.softwareName },
    implementation: { description: options.description, url: options.baseUrl },
    fhirVersion: "4.0.1",
    format: ["json"],
    rest: [
      {
        mode: "server",
        documentation: options.documentation,
        ...(options.security ? { security: options.security } : {}),
        resource: [
          ...options.searchTypes.map((type) => ({
            type,
            interaction: [{ code: "read" as const }, { code: "search-type" as const }],
            searchParam: options.searchParams.map((param) => ({ ...param })),
          })),
          ...(options.otherResources ?? []),
        ],
      },
    ],
  };
}
