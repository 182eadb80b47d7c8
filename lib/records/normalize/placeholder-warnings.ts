import { withoutPlaceholders } from "./placeholders";
import { string, type Json } from "./read";
import type { ReferenceResolver, ResourceEntry } from "./references";

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
 * through a reference (named by type and id), noted by the resolver this returns.
 */
export function placeholderWarnings(resource: Json, placeholders: PlaceholderPaths, resolve: ReferenceResolver) {
  const warnings = new Set((placeholders.get(resource) ?? []).map((path) => warning(path)));
  const noting: ReferenceResolver = (reference, holder) => {
    const target = resolve(reference, holder);
    const label = target && `${string(target.resourceType) ?? "unknown"}/${string(target.id) ?? "?"}`;
    for (const path of (target && placeholders.get(target)) ?? []) warnings.add(warning(path, label));
    return target;
  };
  return { resolve: noting, warnings: () => [...warnings] };
}

function warning(path: string, resourceLabel: string | null = null): string {
  return `${resourceLabel ? `${resourceLabel} ` : ""}${path} held unfilled template text; read as null`;
}
