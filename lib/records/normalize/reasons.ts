import type { Codeable } from "../schemas";
import { codeable, codeables } from "./codes";
import { object, objects, string, type Json } from "./read";
import type { ReferenceResolver } from "./references";

/** The concept a reference stands for: the code of the resource it points at (a Condition, ...), else its display. */
export function referencedConcept(reference: unknown, holder: Json, resolve: ReferenceResolver): Codeable | null {
  const concept = codeable(resolve(reference, holder)?.code);
  if (concept) return concept;
  const display = string(object(reference)?.display);
  return display === null ? null : { text: display, codings: [] };
}

/** Reasons given as codes (reasonCode) followed by reasons given as references (reasonReference). */
export function reasonConcepts(resource: Json, resolve: ReferenceResolver): Codeable[] {
  const referenced = objects(resource.reasonReference).flatMap((reference) => referencedConcept(reference, resource, resolve) ?? []);
  return [...codeables(resource.reasonCode), ...referenced];
}
