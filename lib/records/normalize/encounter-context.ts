import type { EncounterContext } from "../schemas";
import { codeable, codeables } from "./codes";
import { object, objects, string, type Json } from "./read";
import { referenceDisplay, referenceId, type ReferenceResolver } from "./references";
import { period } from "./times";

/**
 * Each Encounter resource's context, once read: a long history's thousands of records reference a few hundred
 * visits. The context depends on the Encounter alone (and the batch its references resolve in).
 */
export type EncounterContexts = Map<Json, EncounterContext>;

/**
 * The encounter a resource was recorded in, as its record carries it (Encounter resources are not records): the
 * `encounter` of most resources, a DocumentReference's `context.encounter`, a claim's first item encounter. With
 * `known`, an Encounter already read is not read again (the records then share its context object).
 */
export function encounterContext(resource: Json, resolve: ReferenceResolver, known?: EncounterContexts): EncounterContext | null {
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
  const cached = known?.get(encounter);
  if (cached) return cached;
  const firstLocation = objects(encounter.location)[0];
  const context: EncounterContext = {
    resourceId: string(encounter.id),
    class: string(object(encounter.class)?.code),
    type: codeables(encounter.type)[0] ?? codeable(encounter.serviceType),
    period: period(encounter.period),
    location:
      referenceDisplay(firstLocation?.location, encounter, resolve) ??
      referenceDisplay(encounter.serviceProvider, encounter, resolve),
  };
  known?.set(encounter, context);
  return context;
}
