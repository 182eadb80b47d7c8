import { isObject, objects, string } from "./read";
import type { SkippedResource } from "./types";

export type UncheckedEntry = { resource: unknown; fullUrl: string | null };

// Deeper nesting than a collection of documents of sections has never been seen; the bound only stops runaway input.
const MAX_NESTED_BUNDLES = 4;

/**
 * The resources of a Bundle. Entries without a resource (the DELETE entries of a transaction) carry no fact and
 * are left out. A Bundle inside the batch (a C-CDA conversion's document Bundle in a collection, a search page
 * passed as a resource) is replaced by its own entries, so its resources are read rather than silently dropped.
 */
export function bundleEntries(bundle: { entry?: unknown }): UncheckedEntry[] {
  return objects(bundle.entry)
    .filter((entry) => entry.resource !== undefined)
    .map((entry) => ({ resource: entry.resource, fullUrl: string(entry.fullUrl) }));
}

export function withNestedBundlesOpened(entries: UncheckedEntry[], skipped: SkippedResource[], depth = 0): UncheckedEntry[] {
  return entries.flatMap((entry) => {
    const resource = entry.resource;
    if (!isObject(resource) || resource.resourceType !== "Bundle") return [entry];
    if (depth >= MAX_NESTED_BUNDLES) {
      skipped.push({ resourceType: "Bundle", resourceId: string(resource.id), reason: "Bundle nested too deep to read" });
      return [];
    }
    return withNestedBundlesOpened(bundleEntries(resource), skipped, depth + 1);
  });
}
