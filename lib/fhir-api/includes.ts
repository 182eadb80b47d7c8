import type { FhirResource } from "fhir/r4";
import { literalReference } from "@/lib/fhir";
import { readServed, type ServedScope } from "./read-resources";
import { INCLUDE_FIELDS } from "./served-types";

/** Every reference string in a value. */
function referencesIn(value: unknown, found: string[]): void {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, field] of Object.entries(value)) {
      if (key === "reference" && typeof field === "string") found.push(field);
      else referencesIn(field, found);
    }
  }
}

/** The `Type/id` references the `_include` parameters follow from these resources. */
export function includedReferences(resources: readonly FhirResource[], include: readonly string[]): Set<string> {
  const wanted = new Set<string>();
  for (const resource of resources) {
    const found: string[] = [];
    for (const param of include) {
      if (param === "*") referencesIn(resource, found);
      else for (const field of INCLUDE_FIELDS[param] ?? []) referencesIn((resource as unknown as Record<string, unknown>)[field], found);
    }
    for (const reference of found) {
      const literal = literalReference(reference);
      if (literal) wanted.add(`${literal.type}/${literal.id}`);
    }
  }
  for (const resource of resources) wanted.delete(`${resource.resourceType}/${resource.id}`);
  return wanted;
}

/** The resources the `_include` parameters reach that the scope serves (a reference to anything else is not followed). */
export async function readIncluded(scope: ServedScope, resources: readonly FhirResource[], include: readonly string[]): Promise<FhirResource[]> {
  if (include.length === 0 || resources.length === 0) return [];
  const wanted = includedReferences(resources, include);
  if (wanted.size === 0) return [];
  const ids = [...wanted].map((reference) => reference.slice(reference.indexOf("/") + 1));
  const { resources: found } = await readServed(scope, { ids }, { offset: 0, count: ids.length });
  return found.filter((resource) => wanted.has(`${resource.resourceType}/${resource.id}`));
}
