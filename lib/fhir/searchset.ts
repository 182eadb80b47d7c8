import type { Bundle, FhirResource } from "fhir/r4";

export type SearchsetOptions = {
  /** The search as the client should repeat it: base URL, type and the parameters that were applied. */
  self: URL;
  /** The FHIR base URL resources' fullUrls are relative to. */
  baseUrl: string;
  matches: readonly FhirResource[];
  /** Page size (`_count`); omitted, every match is on one page. */
  count?: number;
  /** Matches skipped before this page (`_offset`, carried by `next` links). */
  offset?: number;
};

/**
 * A `searchset` Bundle with `total`, `self` and, when more matches remain, a `next` link that carries `_count`
 * and `_offset`, so clients page by following links exactly as they do on real FHIR servers.
 */
export function searchsetBundle({ self, baseUrl, matches, count, offset = 0 }: SearchsetOptions): Bundle {
  const page = count === undefined ? matches.slice(offset) : matches.slice(offset, offset + count);
  const link: NonNullable<Bundle["link"]> = [{ relation: "self", url: pageUrl(self, count, offset) }];
  if (count !== undefined && offset + count < matches.length) {
    link.push({ relation: "next", url: pageUrl(self, count, offset + count) });
  }
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: matches.length,
    link,
    entry: page.map((resource) => ({
      fullUrl: `${baseUrl}/${resource.resourceType}/${resource.id ?? ""}`,
      resource,
      search: { mode: "match" },
    })),
  };
}

function pageUrl(self: URL, count: number | undefined, offset: number): string {
  const url = new URL(self);
  if (count !== undefined) url.searchParams.set("_count", String(count));
  if (offset > 0) url.searchParams.set("_offset", String(offset));
  return url.toString();
}
