import { resourceDisplayName } from "./names";
import { isObject, object, objects, string, type Json } from "./read";

export type ResourceEntry = { resource: Json; fullUrl: string | null };

/** Finds the resource a FHIR Reference points at, seen from the resource that holds the reference. */
export type ReferenceResolver = (reference: unknown, holder: Json) => Json | null;

// The trailing `Type/id` of a relative or absolute literal reference, ignoring a version suffix. FHIR ids are at most
// 64 characters, but real servers exceed it (Epic's are ~100), so any length resolves; longIdWarning reports it.
export const TYPE_AND_ID = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]+)(?:\/_history\/[^/]+)?$/;

export const MAX_FHIR_ID_LENGTH = 64;

/** The warning a record carries when it was read from, or through, a resource whose id breaks FHIR's length limit. */
export function longIdWarning(resource: Json): string | null {
  const id = string(resource.id);
  if (id === null || id.length <= MAX_FHIR_ID_LENGTH) return null;
  return `${string(resource.resourceType) ?? "unknown"} id is ${id.length} characters, longer than FHIR's ${MAX_FHIR_ID_LENGTH}; resolved anyway`;
}

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

/**
 * Calls `found` with every literal `reference` string anywhere in a resource (references nest in backbone elements,
 * extensions and contained resources). A plain recursive walk: it runs over every value an import reads, where a
 * generator per value and an entries array per object made most of its cost.
 */
export function eachLiteralReference(value: unknown, found: (reference: string) => void): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) eachLiteralReference(item, found);
    return;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (key === "reference" && typeof item === "string") found(item);
    // A contained resource's references stay inside its holder (`#id`) or point out like the holder's own.
    else eachLiteralReference(item, found);
  }
}
