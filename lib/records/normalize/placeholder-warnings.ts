import { withoutPlaceholders } from "./placeholders";
import { string, type Json } from "./read";
import { longIdWarning, type ReferenceResolver, type ResourceEntry } from "./references";

/** Where each resource of a batch held placeholders, by the cleaned resource the normalizers read. */
export type PlaceholderPaths = ReadonlyMap<Json, string[]>;

/**
 * The batch with placeholder strings removed from every resource, context resources included, so a value can reach
 * no record through a reference either. A resource whose fields cannot even be read is left as sent: its
 * normalizer meets the same failure and reports it as a skip.
 */
export function entriesWithoutPlaceholders(entries: ResourceEntry[]): {
  entries: ResourceEntry[];
  placeholders: PlaceholderPaths;
} {
  const placeholders = new Map<Json, string[]>();
  const cleaned = entries.map((entry) => {
    let scan;
    try {
      scan = withoutPlaceholders(entry.resource);
    } catch {
      return entry;
    }
    if (scan.paths.length > 0) placeholders.set(scan.resource, scan.paths);
    return { ...entry, resource: scan.resource };
  });
  return { entries: cleaned, placeholders };
}

/**
 * The warnings a record made from `resource` carries: its own placeholders, and those of each resource it read
 * through a reference (named by type and id), noted by the resolver this returns; likewise ids over FHIR's length.
 */
export function placeholderWarnings(resource: Json, placeholders: PlaceholderPaths, resolve: ReferenceResolver) {
  const warnings = new Set((placeholders.get(resource) ?? []).map((path) => warning(path)));
  const ownLongId = longIdWarning(resource);
  if (ownLongId) warnings.add(ownLongId);
  const noting: ReferenceResolver = (reference, holder) => {
    const target = resolve(reference, holder);
    const label = target && `${string(target.resourceType) ?? "unknown"}/${string(target.id) ?? "?"}`;
    for (const path of (target && placeholders.get(target)) ?? []) warnings.add(warning(path, label));
    const longId = target && target !== resource ? longIdWarning(target) : null;
    if (longId) warnings.add(`referenced ${longId}`);
    return target;
  };
  return { resolve: noting, warnings: () => [...warnings] };
}

function warning(path: string, resourceLabel: string | null = null): string {
  return `${resourceLabel ? `${resourceLabel} ` : ""}${path} held unfilled template text; read as null`;
}
