import type { FhirResource } from "fhir/r4";
import { CONTEXT_RESOURCE_TYPES } from "@/lib/records";

// A literal reference's trailing `Type/id` (relative, or under the FHIR base), ignoring a version suffix.
const TYPE_AND_ID = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]+)(?:\/_history\/[^/]+)?$/;

/**
 * Calls `found` with every `reference` string anywhere in a resource (references nest in backbone elements and
 * extensions). A plain recursive walk: it runs over every value an import reads, where a generator per value and
 * an entries array per object made most of its cost.
 */
function eachReference(value: unknown, found: (reference: string) => void): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) eachReference(item, found);
    return;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (key === "reference" && typeof item === "string") found(item);
    // A contained resource's references stay inside its holder (`#id`) or point out like the holder's own.
    else eachReference(item, found);
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
  const base = `${fhirBaseUrl}/`;
  const note = (reference: string) => {
    const relative = reference.startsWith(base) ? reference.slice(base.length) : reference;
    const match = TYPE_AND_ID.exec(relative);
    if (!match) return;
    const [, type = "", id = ""] = match;
    if (!CONTEXT_RESOURCE_TYPES.includes(type) || held.has(`${type}/${id}`)) return;
    missing.set(type, (missing.get(type) ?? new Set()).add(id));
  };
  for (const resource of resources) eachReference(resource, note);
  return new Map([...missing].map(([type, ids]) => [type, [...ids]]));
}
