import type { SourceRef } from "../schemas";

/**
 * What one source contributed to a record: the hash of the record as that source reported it, and its resource
 * references. Kept per record in contribution order; the first contributor's content is the record's content.
 */
export type Contribution = {
  sourceId: string;
  hash: string;
  refs: SourceRef[];
  /** The hash of the FHIR resource the source sent for the record (lib/fhir/stored-resource.ts), when it sent one. */
  fhir?: string;
};

export function withContribution(contributions: readonly Contribution[], contribution: Contribution): Contribution[] {
  const index = contributions.findIndex((known) => known.sourceId === contribution.sourceId);
  if (index === -1) return [...contributions, contribution];
  return contributions.map((known, position) => (position === index ? contribution : known));
}

export function withoutSource(contributions: readonly Contribution[], sourceId: string): Contribution[] {
  return contributions.filter((known) => known.sourceId !== sourceId);
}

/** The record's public `sources`: every contributor's references, in contribution order. */
export function publicSources(contributions: readonly Contribution[]): SourceRef[] {
  return contributions.flatMap((contribution) => contribution.refs);
}
