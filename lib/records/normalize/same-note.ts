import { sha256Hex } from "@/lib/sha256";
import { object, objects, string, type Json } from "./read";

type Normalized = { resource: Json; resourceType: string };

/**
 * US Core asks servers to expose each clinical note both as a DiagnosticReport and as a DocumentReference, and
 * Synthea writes every note both ways, so one note would otherwise become two documents records. A report whose
 * presented form a DocumentReference of the same batch also carries (the same URL, or the same inline data) is
 * that document; the DocumentReference is kept because it is the resource made to describe documents.
 * Returns each such report with the document that serves its note.
 */
export function reportsServedAsDocuments<C extends Normalized>(candidates: C[]): Map<C, C> {
  return servedAsDocuments(candidates, (candidate) => noteKeys(candidate.resourceType, candidate.resource));
}

/**
 * The same, for candidates that carry only what this reads of their resource: the keys of a DocumentReference's
 * attachments or of a DiagnosticReport's presented forms (`noteKeys`), so a paged normalization need not keep them.
 */
export function servedAsDocuments<C extends { resourceType: string }>(candidates: C[], keysOf: (candidate: C) => readonly string[]): Map<C, C> {
  const documentByContent = new Map<string, C>();
  for (const candidate of candidates) {
    if (candidate.resourceType !== "DocumentReference") continue;
    for (const key of keysOf(candidate)) if (!documentByContent.has(key)) documentByContent.set(key, candidate);
  }

  const served = new Map<C, C>();
  for (const candidate of candidates) {
    if (candidate.resourceType !== "DiagnosticReport") continue;
    const document = keysOf(candidate)
      .map((key) => documentByContent.get(key))
      .find((found) => found !== undefined);
    if (document) served.set(candidate, document);
  }
  return served;
}

/** What identifies the note a DocumentReference or DiagnosticReport carries (its attachments' URLs and data); none for other types. */
export function noteKeys(resourceType: string, resource: Json): string[] {
  if (resourceType === "DocumentReference") return objects(resource.content).map((content) => object(content.attachment)).flatMap(contentKeys);
  if (resourceType === "DiagnosticReport") return objects(resource.presentedForm).flatMap(contentKeys);
  return [];
}

function contentKeys(attachment: Json | null): string[] {
  const url = string(attachment?.url);
  const data = string(attachment?.data);
  return [
    ...(url === null ? [] : [`url:${url}`]),
    ...(data === null ? [] : [`data:${sha256Hex(data)}`]),
  ];
}
