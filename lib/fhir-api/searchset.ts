import type { Bundle, FhirResource } from "fhir/r4";
import { operationOutcome } from "@/lib/fhir";
import { decodeCursor, encodeCursor, type ApiError, type CursorBinding } from "@/lib/http";
import type { ServedText } from "./read-resources";

/** What a searchset page is: its resources, includes, how many match, and where it sits. */
export type SearchPage = {
  /** The FHIR base, e.g. `https://host/api/v1/fhir`. */
  base: string;
  /** The search's path under the base: `Observation`, `Patient/u-X/$everything`. */
  path: string;
  /** The parameters applied, as the self link repeats them. */
  applied: readonly [string, string][];
  count: number;
  offset: number;
  total: number;
  /** The matches, as resources or as their served JSON text (readServedText). */
  matches: readonly (FhirResource | ServedText)[];
  included?: readonly FhirResource[];
  /** Why nothing (or less) is served: an OperationOutcome entry with search mode `outcome`. */
  outcome?: { error: ApiError; requestId: string };
  binding: CursorBinding;
};

type Position = { o: number };

/** The binding of a search's cursors: the endpoint, the subject, and the search itself (type and parameters). */
export function searchBinding(scope: { applicationId: string; environment: string; subject: string }, path: string, applied: readonly [string, string][], count: number): CursorBinding {
  const search = JSON.stringify([path, [...applied].sort(), count]);
  return { endpoint: "fhir", applicationId: scope.applicationId, environment: scope.environment, subject: scope.subject, category: search };
}

/** The offset a `_cursor` carries: 400 `invalid_cursor` for a cursor edited or from another search. */
export function cursorOffset(cursor: string | null, binding: CursorBinding): number {
  return cursor === null ? 0 : decodeCursor<Position>(cursor, binding).o;
}

function link(page: SearchPage, offset: number | null): string {
  const url = new URL(`${page.base}/${page.path}`);
  for (const [name, value] of page.applied) url.searchParams.append(name, value);
  url.searchParams.set("_count", String(page.count));
  if (offset !== null) url.searchParams.set("_cursor", encodeCursor<Position>(page.binding, { o: offset }));
  return url.toString();
}

/** A searchset Bundle: `total`, a `self` link, a `next` link with a signed cursor while matches remain. */
export function searchsetPage(page: SearchPage): Bundle {
  const links: NonNullable<Bundle["link"]> = [{ relation: "self", url: link(page, page.offset === 0 ? null : page.offset) }];
  if (page.count > 0 && page.offset + page.count < page.total) links.push({ relation: "next", url: link(page, page.offset + page.count) });
  // A match given as text is spliced into the answer as it is (the Bundle is then written by jsonText).
  const entry = (resource: FhirResource | ServedText, mode: "match" | "include") => ({
    fullUrl: `${page.base}/${resource.resourceType}/${resource.id}`,
    resource: ("json" in resource ? resource.json : resource) as FhirResource,
    search: { mode },
  });
  const entries: NonNullable<Bundle["entry"]> = [
    ...page.matches.map((resource) => entry(resource, "match")),
    ...(page.included ?? []).map((resource) => entry(resource, "include")),
  ];
  if (page.outcome) {
    const outcome = operationOutcome(page.outcome.error, page.outcome.requestId);
    entries.push({ resource: { ...outcome, issue: outcome.issue.map((issue) => ({ ...issue, severity: "warning" as const })) }, search: { mode: "outcome" } });
  }
  // FHIR JSON has no empty arrays: a page without entries has no `entry`.
  return { resourceType: "Bundle", type: "searchset", total: page.total, link: links, ...(entries.length > 0 ? { entry: entries } : {}) };
}
