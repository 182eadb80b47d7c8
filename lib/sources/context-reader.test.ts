import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { ContextReader, MAX_CONTEXT_RESOURCES, type ContextSearchResult } from "./context-reader";
import { SourceError } from "./source-error";

const BASE = "https://ehr.example.org/fhir";
const ids = (count: number, length: number, prefix = "") => Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(length - prefix.length, "x")}`);
/** Search results referencing each id as their Encounter (or another context type). */
const referencing = (targets: readonly string[], type = "Encounter") =>
  targets.map((id, index) => ({ resourceType: "Observation", id: `obs-${type}-${index}`, encounter: { reference: `${type}/${id}` } }) as FhirResource);
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** What the health system answers a search: its matches, a refusal, or a failure (undefined: every id asked). */
type Answer = (resourceType: string, ids: string[]) => ContextSearchResult | Error | undefined;

/** A health system answering `_id` searches: each search waits until released (or answers at once), and is recorded. */
function server(options: { immediate?: boolean; answer?: Answer } = {}) {
  const searches: { resourceType: string; ids: string[]; release: () => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const search = async (resourceType: string, batch: string[]): Promise<ContextSearchResult> => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    try {
      if (!options.immediate) await new Promise<void>((release) => searches.push({ resourceType, ids: batch, release }));
      else searches.push({ resourceType, ids: batch, release: () => {} });
      const answer = options.answer?.(resourceType, batch) ?? batch.map((id) => ({ resourceType, id }) as FhirResource);
      if (answer instanceof Error) throw answer;
      return answer;
    } finally {
      inFlight -= 1;
    }
  };
  return { search, searches, mostInFlight: () => mostInFlight };
}

async function readAll(notes: FhirResource[][], answer?: Answer) {
  const ehr = server({ immediate: true, answer });
  const reader = new ContextReader(BASE, ehr.search, 4);
  for (const page of notes) reader.note(page);
  return { ...(await reader.finish()), searches: ehr.searches };
}

describe("reading the context search pages reference", () => {
  it("puts as many ids in one _id search as about 2,000 characters hold, in order, each id once", async () => {
    const epic = ids(45, 100);
    const { searches } = await readAll([referencing(epic), referencing(epic.slice(0, 10))]);
    expect(searches.map((search) => search.ids.length)).toEqual([19, 19, 7]);
    expect(searches.flatMap((search) => search.ids)).toEqual(epic);
    for (const search of searches) expect(search.ids.join(",").length).toBeLessThanOrEqual(2_000);
    expect((await readAll([referencing(ids(120, 39))])).searches.map((search) => search.ids.length)).toEqual([50, 50, 20]);
  });

  it("caps a search at 100 ids however short, and gives an id longer than the limit a search of its own", async () => {
    expect((await readAll([referencing(ids(250, 3))])).searches.map((search) => search.ids.length)).toEqual([100, 100, 50]);
    expect((await readAll([referencing(["a", "y".repeat(2_500), "b"])])).searches.map((search) => search.ids)).toEqual([["a"], ["y".repeat(2_500)], ["b"]]);
    expect((await readAll([])).searches).toEqual([]);
  });

  it("starts a type's first search as soon as a batch is full, alone, and the others once it answered, a few at a time", async () => {
    const ehr = server();
    const reader = new ContextReader(BASE, ehr.search, 2);
    reader.note(referencing(ids(120, 39)));
    await settle();
    // Two batches are full; the first runs alone (does the server search Encounters by _id?), the third is filling.
    expect(ehr.searches.map((search) => search.ids.length)).toEqual([50]);
    reader.note(referencing(ids(130, 39).slice(120)));
    ehr.searches[0]!.release();
    await settle();
    expect(ehr.searches.map((search) => search.ids.length)).toEqual([50, 50]);
    reader.note(referencing(ids(400, 39).slice(130)));
    await settle();
    // Never more than two at once.
    expect(ehr.searches).toHaveLength(3);
    const finished = reader.finish();
    for (let round = 0; round < 10; round++) {
      for (const search of ehr.searches) search.release();
      await settle();
    }
    const { resources, unread } = await finished;
    expect(ehr.mostInFlight()).toBe(2);
    expect(ehr.searches.map((search) => search.ids.length)).toEqual([50, 50, 50, 50, 50, 50, 50, 50]);
    expect(resources.map((resource) => resource.id)).toEqual(ids(400, 39).sort());
    expect(unread).toEqual([]);
  });

  it("gives up a type the server refuses to search by _id, reading the other types", async () => {
    const { resources, unread, searches } = await readAll([[...referencing(ids(120, 39)), ...referencing(["m-1"], "Medication")]], (resourceType) =>
      resourceType === "Encounter" ? { status: 400 } : undefined,
    );
    expect(searches.map((search) => `${search.resourceType}:${search.ids.length}`).sort()).toEqual(["Encounter:50", "Medication:1"]);
    expect(resources.map((resource) => `${resource.resourceType}/${resource.id}`)).toEqual(["Medication/m-1"]);
    expect(unread).toEqual([{ resourceType: "Encounter", reason: "the Encounter search by _id answered 400" }]);
  });

  it("admits whole types, in a fixed order, while they fit MAX_CONTEXT_RESOURCES, whatever order the pages came in", async () => {
    const encounters = referencing(ids(MAX_CONTEXT_RESOURCES - 1, 8, "e"));
    const practitioners = referencing(["p-1", "p-2"], "Practitioner");
    for (const pages of [
      [encounters, practitioners],
      [practitioners, encounters],
    ]) {
      const { resources, unread } = await readAll(pages);
      expect(resources).toHaveLength(MAX_CONTEXT_RESOURCES - 1);
      expect(resources.every((resource) => resource.resourceType === "Encounter")).toBe(true);
      expect(unread).toEqual([{ resourceType: "Practitioner", reason: `more than ${MAX_CONTEXT_RESOURCES} context resources in one import` }]);
    }
  });

  it("stops searching a type once it alone is past the limit, and reads none of it", async () => {
    const { resources, unread, searches } = await readAll([referencing(ids(MAX_CONTEXT_RESOURCES + 500, 8, "e")), referencing(["m-1"], "Medication")]);
    expect(searches.filter((search) => search.resourceType === "Encounter").flatMap((search) => search.ids).length).toBeLessThanOrEqual(MAX_CONTEXT_RESOURCES);
    expect(resources.map((resource) => `${resource.resourceType}/${resource.id}`)).toEqual(["Medication/m-1"]);
    expect(unread).toEqual([{ resourceType: "Encounter", reason: `more than ${MAX_CONTEXT_RESOURCES} context resources in one import` }]);
  });

  it("returns each resource once, by type then id, and only those asked for", async () => {
    const { resources } = await readAll(
      [referencing(["b", "a"]), referencing(["org-1"], "Organization"), referencing(["a"]), referencing(["m-1"], "Medication")],
      (resourceType, batch) => [...batch, ...batch].map((id) => ({ resourceType, id }) as FhirResource).concat([{ resourceType, id: "not-asked" } as FhirResource]),
    );
    expect(resources.map((resource) => `${resource.resourceType}/${resource.id}`)).toEqual(["Encounter/a", "Encounter/b", "Medication/m-1", "Organization/org-1"]);
  });

  it("leaves out a type whose search fails, but ends the read when the token is refused", async () => {
    const failing = await readAll([referencing(["a"]), referencing(["m-1"], "Medication")], (resourceType) =>
      resourceType === "Encounter" ? new Error("The Encounter search (page 1) answered 500.") : undefined,
    );
    expect(failing.resources.map((resource) => resource.id)).toEqual(["m-1"]);
    expect(failing.unread).toEqual([{ resourceType: "Encounter", reason: "The Encounter search (page 1) answered 500." }]);
    const refused = new SourceError("reauthorization_required", "The Encounter search (page 1) answered 401 with a fresh token.");
    await expect(readAll([referencing(["a"])], () => refused)).rejects.toBe(refused);
  });

  it("when the searches fail, starts nothing more and waits for the context searches under way", async () => {
    const ehr = server();
    const reader = new ContextReader(BASE, ehr.search, 4);
    reader.note(referencing(ids(120, 39)));
    await settle();
    let abandoned = false;
    const abandoning = reader.abandon().then(() => (abandoned = true));
    await settle();
    expect(abandoned).toBe(false);
    ehr.searches[0]!.release();
    await abandoning;
    reader.note(referencing(ids(300, 39).slice(120)));
    await settle();
    expect(ehr.searches).toHaveLength(1);
  });
});
