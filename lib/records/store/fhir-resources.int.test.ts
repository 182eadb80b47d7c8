import type { Bundle, FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { isContextType, patientFhirId, recordFhirId } from "@/lib/fhir";
import { scenarioBundle } from "@/lib/sandbox";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { importBundle, TEST_SOURCE } from "@/test/records";

const OTHER_SOURCE = { sourceId: "src_othersource0000000000000", sourceName: "Other Clinic" };

async function subject() {
  const { application } = await createTestApplication();
  return createTestSubject(application.id);
}

function edited(edit: (resource: FhirResource) => FhirResource | null): Bundle {
  const bundle = structuredClone(scenarioBundle("baseline-adult"));
  bundle.entry = bundle.entry!.flatMap((entry) => {
    const resource = edit(entry.resource!);
    return resource ? [{ ...entry, resource }] : [];
  });
  return bundle;
}

async function stored(subjectId: string) {
  const records = await db().record.findMany({ where: { subjectId, deletedAt: null }, orderBy: { id: "asc" } });
  const context = await db().fhirContext.findMany({ where: { subjectId }, orderBy: { id: "asc" } });
  return { records, context };
}

/** The resource with its `reference` strings left out (the FHIR view rewrites them). */
function withoutReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReferences);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== "reference").map(([key, field]) => [key, withoutReferences(field)]));
}

/** Every literal reference in a resource. */
function references(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => references(item, found));
  else if (value && typeof value === "object") {
    for (const [key, field] of Object.entries(value)) {
      if (key === "reference" && typeof field === "string") found.push(field);
      else references(field, found);
    }
  }
  return found;
}

describe("the FHIR view's storage (issue 52, point 1)", () => {
  it("keeps each record's resource as the source sent it, under the record's FHIR id, with the context resources and every reference rewritten to what is served", async () => {
    const { id } = await subject();
    await importBundle(id, scenarioBundle("baseline-adult"));
    const { records, context } = await stored(id);
    const sent = new Map(scenarioBundle("baseline-adult").entry!.map(({ resource }) => [`${resource!.resourceType}/${resource!.id}`, resource!]));

    expect(records.length).toBeGreaterThan(40);
    for (const record of records) {
      const resource = record.resource as unknown as FhirResource & { id: string };
      expect(resource, record.id).not.toBeNull();
      expect(resource.id).toBe(record.category === "demographics" ? patientFhirId(id) : recordFhirId(record.id));
      expect(record.version).toBe(1);
      // What the source sent, field for field, but for the id, references and the source's own version metadata.
      const source = (record.sources as { refs: { resourceType: string; resourceId: string }[] }[])[0]!.refs[0]!;
      const original = sent.get(`${source.resourceType}/${source.resourceId}`)! as FhirResource & Record<string, unknown>;
      expect(resource.resourceType).toBe(original.resourceType);
      expect(withoutReferences({ ...resource, id: null, meta: null })).toEqual(withoutReferences({ ...original, id: null, meta: null }));
    }
    expect(context.map((row) => row.resourceType).sort()).toEqual(["Encounter", "Encounter", "Encounter", "Encounter", "Medication", "Organization", "Practitioner", "Practitioner"]);

    const served = new Set([`Patient/${patientFhirId(id)}`, ...records.map((record) => `${(record.resource as { resourceType: string }).resourceType}/${(record.resource as { id: string }).id}`), ...context.map((row) => `${row.resourceType}/${row.id}`)]);
    const all = [...records.map((record) => record.resource), ...context.map((row) => row.resource)];
    const refs = all.flatMap((resource) => references(resource));
    expect(refs.length).toBeGreaterThan(50);
    for (const reference of refs) {
      const type = reference.split("/")[0]!;
      if (type === "Patient" || isContextType(type)) expect(served.has(reference), reference).toBe(true);
    }
  });

  it("changes a resource's version and lastUpdated exactly when what the source sent for it changes, a field the JSON view does not map included", async () => {
    const { id } = await subject();
    await importBundle(id, scenarioBundle("baseline-adult"));
    const before = await stored(id);
    const again = await importBundle(id, scenarioBundle("baseline-adult"));
    expect(again).toMatchObject({ upserts: 0, deletes: 0 });
    expect(await stored(id)).toEqual(before);

    const target = "baseline-adult-obs-a1c-2023-04";
    const note = [{ url: "https://riverbend-health.example/fhir/StructureDefinition/drawn-fasting", valueBoolean: true }];
    const changed = await importBundle(
      id,
      edited((resource) => (resource.id === target ? ({ ...resource, extension: note } as FhirResource) : resource.resourceType === "Practitioner" ? { ...resource, gender: "unknown" } : resource)),
    );
    expect(changed).toMatchObject({ upserts: 1, deletes: 0 });
    const after = await stored(id);
    for (const record of after.records) {
      const earlier = before.records.find((row) => row.id === record.id)!;
      const isTarget = (record.sources as { refs: { resourceId: string }[] }[])[0]!.refs.some((ref) => ref.resourceId === target);
      expect(record.version, record.id).toBe(isTarget ? 2 : 1);
      expect(record.updatedAt.getTime() > earlier.updatedAt.getTime(), record.id).toBe(isTarget);
      if (isTarget) expect(record.data).toEqual(earlier.data);
    }
    expect(after.records.filter((record) => JSON.stringify(record.resource).includes("drawn-fasting")).map((record) => (record.resource as { extension: unknown }).extension)).toEqual([note]);
    const changes = await db().recordChange.findMany({ where: { subjectId: id, category: "labs" }, orderBy: { sequence: "desc" }, take: 1 });
    expect(changes[0]).toMatchObject({ changeType: "upsert" });
    for (const row of after.context) expect(row.version, row.resourceType).toBe(row.resourceType === "Practitioner" ? 2 : 1);

    // A context resource the source no longer sends is gone; the records referencing it keep the reference as sent.
    await importBundle(id, edited((resource) => (resource.resourceType === "Organization" ? null : resource)));
    expect((await stored(id)).context.some((row) => row.resourceType === "Organization")).toBe(false);
  });

  it("serves a fact two sources sent as the first source's resource, naming both sources, each source keeping its own context resources", async () => {
    const { id } = await subject();
    await importBundle(id, scenarioBundle("baseline-adult"));
    const first = await stored(id);
    await importBundle(id, edited((resource) => (resource.resourceType === "Observation" ? { ...resource, issued: "2024-01-01T00:00:00Z" } : resource)), OTHER_SOURCE);
    const both = await stored(id);
    const lab = both.records.find((record) => record.category === "labs")!;
    expect(lab.resource).toEqual(first.records.find((record) => record.id === lab.id)!.resource);
    expect((lab.sources as { sourceId: string }[]).map((contribution) => contribution.sourceId)).toEqual([TEST_SOURCE.sourceId, OTHER_SOURCE.sourceId]);
    // Each source's context resources are its own.
    expect(new Set(both.context.map((row) => row.sourceId))).toEqual(new Set([TEST_SOURCE.sourceId, OTHER_SOURCE.sourceId]));
  });

  it("costs this much storage per record (printed for docs/fhir.md)", async () => {
    const { id } = await subject();
    await importBundle(id, scenarioBundle("baseline-adult"));
    const [sizes] = await db().$queryRawUnsafe<{ records: number; data: number; resource: number; row: number; context: number }[]>(
      `SELECT count(*)::int AS "records", sum(pg_column_size("data"))::int AS "data", sum(pg_column_size("resource"))::int AS "resource",
         sum(pg_column_size("Record".*))::int AS "row",
         (SELECT coalesce(sum(pg_column_size(c.*)), 0)::int FROM "FhirContext" c WHERE c."subjectId" = $1) AS "context"
       FROM "Record" WHERE "subjectId" = $1`,
      id,
    );
    console.log(`FHIR view storage, baseline-adult: ${JSON.stringify(sizes)}; bytes per record before ${Math.round((sizes!.row - sizes!.resource) / sizes!.records)}, after ${Math.round(sizes!.row / sizes!.records)}, context ${Math.round(sizes!.context / sizes!.records)}`);
    expect(sizes!.resource).toBeGreaterThan(0);
  });
});
