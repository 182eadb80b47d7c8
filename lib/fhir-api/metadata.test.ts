import { describe, expect, it } from "vitest";
import { PLATFORM_ROUTES } from "@/lib/routes";
import { getFhirMetadata } from "./metadata";
import { SERVED_TYPES } from "./served-types";

// The CapabilityStatement lists exactly what the route table serves: a client that plans from it finds every
// interaction and operation it names, and nothing else.
describe("the FHIR API's CapabilityStatement", () => {
  const statement = getFhirMetadata("https://ck.example/api/v1/fhir");
  const rest = statement.rest![0]!;
  const served = (method: "GET", path: string) => PLATFORM_ROUTES.operationAt(method, `/api/v1/fhir${path}`) !== undefined;

  it("names every served type with read and search, and each is routed", () => {
    const types = rest.resource!.filter((resource) => resource.type !== "Group");
    expect(types.map((resource) => resource.type).sort()).toEqual([...SERVED_TYPES].sort());
    for (const { type, interaction } of types) {
      expect(interaction!.map((entry) => entry.code)).toEqual(["read", "search-type"]);
      expect(served("GET", `/${type}`)).toBe(true);
      expect(served("GET", `/${type}/some-id`)).toBe(true);
    }
  });

  it("names $everything, the system $export and the consented Group's $export, each routed, and instantiates Bulk Data", () => {
    expect(rest.resource!.find((resource) => resource.type === "Patient")!.operation!.map((operation) => operation.name)).toEqual(["everything"]);
    expect(served("GET", "/Patient/u-x/$everything")).toBe(true);
    expect(rest.operation!.map((operation) => operation.definition)).toEqual(["http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export"]);
    expect(served("GET", "/$export")).toBe(true);
    const group = rest.resource!.find((resource) => resource.type === "Group")!;
    expect(group.interaction ?? []).toEqual([]);
    expect(group.operation!.map((operation) => operation.definition)).toEqual(["http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export"]);
    expect(served("GET", "/Group/consented/$export")).toBe(true);
    expect(statement.instantiates).toContain("http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data");
  });
});
