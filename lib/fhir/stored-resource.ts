import { createHash } from "node:crypto";

/**
 * How the FHIR view names what it serves (issue 52). FHIR ids allow only `[A-Za-z0-9-.]{1,64}`, so the platform's
 * ids (`u_...`, `rec_...`) are served with a hyphen for their underscore: the Patient of subject `u_X` is
 * `Patient/u-X`, the resource of record `rec_Y` is `<Type>/rec-Y`. Both forms are accepted where a client names them.
 * The resources records reference but that are no record (context) get a deterministic id of (subject, source, type,
 * the source's id): `ctx-` and 40 hex digits, so two health systems' `Practitioner/1` never collide.
 */
export const CONTEXT_TYPES = ["Encounter", "Practitioner", "Organization", "Location", "Medication"] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];

export function isContextType(type: string): type is ContextType {
  return (CONTEXT_TYPES as readonly string[]).includes(type);
}

export function patientFhirId(subjectId: string): string {
  return subjectId.replace(/^u_/, "u-");
}

export function recordFhirId(recordId: string): string {
  return recordId.replace(/^rec_/, "rec-");
}

/** A served id (or the platform's own form of it) as the platform stores it: `u-X` is `u_X`, `rec-Y` is `rec_Y`. */
export function platformIdOf(fhirId: string): string {
  return fhirId.replace(/^(u|rec)-/, "$1_");
}

export function contextFhirId(subjectId: string, sourceId: string, resourceType: string, sourceResourceId: string): string {
  return `ctx-${createHash("sha256").update(JSON.stringify([subjectId, sourceId, resourceType, sourceResourceId])).digest("hex").slice(0, 40)}`;
}

/** `Type/id`, `Type/id/_history/n` or an absolute URL ending so: the type and id; null for anything else. */
const LITERAL = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

export function literalReference(reference: string): { type: string; id: string } | null {
  if (reference.startsWith("#") || reference.startsWith("urn:")) return null;
  const match = LITERAL.exec(reference);
  return match ? { type: match[1]!, id: match[2]! } : null;
}

/** Each `Type/id` of a source to the `Type/id` the FHIR view serves it as. */
export type ReferenceTargets = { get(key: string): string | undefined };

/**
 * The resource with every literal reference the map knows (`Type/id` of the source, keyed so) rewritten to its
 * served `Type/id`; references it does not know (contained, urn, a resource the source never sent) stay as sent.
 * Returns a copy; the input is not modified.
 */
export function withReferencesRewritten(value: unknown, targets: ReferenceTargets): unknown {
  if (Array.isArray(value)) return value.map((item) => withReferencesRewritten(item, targets));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key === "reference" && typeof field === "string") {
      const literal = literalReference(field);
      copy[key] = (literal && targets.get(`${literal.type}/${literal.id}`)) ?? field;
    } else copy[key] = withReferencesRewritten(field, targets);
  }
  return copy;
}

/**
 * A source's resource as the store keeps it: its id the served one, its references rewritten, and the source's
 * own version metadata dropped (the FHIR view's versionId, lastUpdated and source are the platform's; the source's
 * profiles, security labels and tags stay).
 */
export function storedResource(resource: Record<string, unknown>, fhirId: string, targets: ReferenceTargets): Record<string, unknown> {
  const rewritten = withReferencesRewritten(resource, targets) as Record<string, unknown>;
  rewritten.id = fhirId;
  const meta = rewritten.meta as Record<string, unknown> | undefined;
  if (meta && typeof meta === "object") {
    const kept = Object.fromEntries(Object.entries(meta).filter(([name]) => name !== "versionId" && name !== "lastUpdated" && name !== "source"));
    if (Object.keys(kept).length > 0) rewritten.meta = kept;
    else delete rewritten.meta;
  }
  return rewritten;
}
