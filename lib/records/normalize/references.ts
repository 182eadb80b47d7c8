import { resourceDisplayName } from "./names";
import { isObject, object, objects, string, type Json } from "./read";

export type ResourceEntry = { resource: Json; fullUrl: string | null };

/** Finds the resource a FHIR Reference points at, seen from the resource that holds the reference. */
export type ReferenceResolver = (reference: unknown, holder: Json) => Json | null;

// The trailing `Type/id` of a relative or absolute literal reference, ignoring a version suffix.
const TYPE_AND_ID = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/;

/**
 * Resolves references within one batch of resources: `#id` against the holder's contained resources, a bundle
 * fullUrl (Synthea transaction bundles use `urn:uuid:` references), then `Type/id` (relative, or the tail of an
 * absolute URL).
 */
export function referenceResolver(entries: ResourceEntry[]): ReferenceResolver {
  const byFullUrl = new Map<string, Json>();
  const byTypeAndId = new Map<string, Json>();
  for (const { resource, fullUrl } of entries) {
    if (fullUrl) byFullUrl.set(fullUrl, resource);
    const type = string(resource.resourceType);
    const id = string(resource.id);
    if (type && id) byTypeAndId.set(`${type}/${id}`, resource);
  }

  return (reference, holder) => {
    const target = string(object(reference)?.reference);
    if (!target) return null;
    if (target.startsWith("#")) {
      return objects(holder.contained).find((contained) => contained.id === target.slice(1)) ?? null;
    }
    const byUrl = byFullUrl.get(target);
    if (byUrl) return byUrl;
    const match = TYPE_AND_ID.exec(target);
    return match ? (byTypeAndId.get(`${match[1]}/${match[2]}`) ?? null) : null;
  };
}

/** The id a literal reference names (its trailing `Type/id`), whatever the holder's batch holds. */
export function referenceId(reference: Json): string | null {
  const target = string(reference.reference);
  const match = target === null ? null : TYPE_AND_ID.exec(target);
  return match?.[2] ?? null;
}

/** The display a reference carries, else the name of the resource it points at. */
export function referenceDisplay(reference: unknown, holder: Json, resolve: ReferenceResolver): string | null {
  if (!isObject(reference)) return null;
  return string(reference.display) ?? resourceDisplayName(resolve(reference, holder));
}
