import type { FhirResource } from "fhir/r4";
import { CONTEXT_RESOURCE_TYPES } from "@/lib/records";

// A literal reference's trailing `Type/id` (relative, or under the FHIR base), ignoring a version suffix.
const TYPE_AND_ID = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]+)(?:\/_history\/[^/]+)?$/;

/** Every `reference` string anywhere in a resource (references nest in backbone elements and extensions). */
function* referenceStrings(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    for (const item of value) yield* referenceStrings(item);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "reference" && typeof item === "string") yield item;
      // A contained resource's references stay inside its holder (`#id`) or point out like the holder's own.
      else yield* referenceStrings(item);
    }
  }
}

/**
 * The context resources (`CONTEXT_RESOURCE_TYPES`) the batch references but does not hold, by type, each id
 * once: what the import must read so the records carry a prescription's medication, a visit's date and place, a
 * performer's name. References to another server (an absolute URL outside `fhirBaseUrl`) are not followed: the
 * access token is never sent elsewhere.
 */
export function missingContextReferences(resources: readonly FhirResource[], fhirBaseUrl: string): Map<string, string[]> {
  const held = new Set(resources.map((resource) => `${resource.resourceType}/${resource.id}`));
  const missing = new Map<string, Set<string>>();
  for (const resource of resources) {
    for (const reference of referenceStrings(resource)) {
      const relative = reference.startsWith(`${fhirBaseUrl}/`) ? reference.slice(fhirBaseUrl.length + 1) : reference;
      const match = TYPE_AND_ID.exec(relative);
      if (!match) continue;
      const [, type = "", id = ""] = match;
      if (!CONTEXT_RESOURCE_TYPES.includes(type) || held.has(`${type}/${id}`)) continue;
      missing.set(type, (missing.get(type) ?? new Set()).add(id));
    }
  }
  return new Map([...missing].map(([type, ids]) => [type, [...ids]]));
}
