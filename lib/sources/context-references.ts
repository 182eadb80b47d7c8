import type { FhirResource } from "fhir/r4";
import { CONTEXT_RESOURCE_TYPES, eachLiteralReference } from "@/lib/records";

// A literal reference's trailing `Type/id` (relative, or under the FHIR base), ignoring a version suffix.
const TYPE_AND_ID = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]+)(?:\/_history\/[^/]+)?$/;

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
  for (const resource of resources) eachLiteralReference(resource, note);
  return new Map([...missing].map(([type, ids]) => [type, [...ids]]));
}
