import type { EncounterContext } from "../schemas";
import { codeable, codeables } from "./codes";
import { object, objects, string, type Json } from "./read";
import { referenceDisplay, referenceId, type ReferenceResolver } from "./references";
import { period } from "./times";

/**
 * The encounter a resource was recorded in, as its record carries it (Encounter resources are not records): the
 * `encounter` of most resources, a DocumentReference's `context.encounter`, a claim's first item encounter.
 */
export function encounterContext(resource: Json, resolve: ReferenceResolver): EncounterContext | null {
  const reference =
    object(resource.encounter) ??
    objects(object(resource.context)?.encounter)[0] ??
    object(resource.context) ??
    objects(objects(resource.item)[0]?.encounter)[0];
  if (!reference || (reference.reference === undefined && reference.display === undefined)) return null;
  const encounter = resolve(reference, resource);
  if (!encounter || encounter.resourceType !== "Encounter") {
    const id = referenceId(reference);
    const display = string(reference.display);
    if (id === null && display === null) return null;
    return { resourceId: id, class: null, type: display === null ? null : { text: display, codings: [] }, period: null, location: null };
  }
  const firstLocation = objects(encounter.location)[0];
  return {
    resourceId: string(encounter.id),
    class: string(object(encounter.class)?.code),
    type: codeables(encounter.type)[0] ?? codeable(encounter.serviceType),
    period: period(encounter.period),
    location:
      referenceDisplay(firstLocation?.location, encounter, resolve) ??
      referenceDisplay(encounter.serviceProvider, encounter, resolve),
  };
}
