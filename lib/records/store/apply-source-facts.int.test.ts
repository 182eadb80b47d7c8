import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { scenarioBundle } from "@/lib/sandbox";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { normalizeBundle, type NormalizedFact } from "../normalize";
import { applySourceFacts } from "./apply-source-facts";

const SOURCE_A = { sourceId: "src_a", sourceName: "Alpha Health" };
const SOURCE_B = { sourceId: "src_b", sourceName: "Beta Clinic" };

async function subject() {
  const { application } = await createTestApplication();
  return createTestSubject(application.id);
}

function baselineFacts(subjectId: string, source = SOURCE_A): NormalizedFact[] {
  return normalizeBundle(scenarioBundle("baseline-adult"), source, subjectId).facts;
}

async function feed(subjectId: string) {
  return db().recordChange.findMany({ where: { subjectId }, orderBy: [{ category: "asc" }, { sequence: "asc" }] });
}

describe("the write path", () => {
  it("stores every fact once, with one upsert change per record and sequences 1..n per category", async () => {
    const { id } = await subject();
    const facts = baselineFacts(id);
    const outcome = await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts });
    expect(outcome).toMatchObject({ upserts: facts.length, deletes: 0, unchanged: 0 });

    const records = await db().record.findMany({ where: { subjectId: id } });
    expect(records).toHaveLength(facts.length);
    expect(new Set(records.map((record) => record.id))).toEqual(new Set(facts.map((fact) => fact.record.recordId)));
    for (const record of records) expect(record.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const changes = await feed(id);
    expect(changes).toHaveLength(facts.length);
    for (const category of new Set(changes.map((change) => change.category))) {
      const sequences = changes.filter((change) => change.category === category).map((change) => change.sequence);
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    }
  });

  it("writes a first import's records in read order, so a page of a category is a few consecutive heap blocks", async () => {
    const { id } = await subject();
    const facts = normalizeBundle(scenarioBundle("long-history"), SOURCE_A, id).facts;
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts });

    // Each category's first page as the API reads it, with the heap block each row is in.
    type Placed = { category: string; block: number; bytes: number };
    const pages = await db().$queryRawUnsafe<Placed[]>(
      `SELECT c."category", (r."place"::text::point)[0]::int AS "block", r."bytes"
       FROM unnest($2::text[]) AS c("category"),
         LATERAL (SELECT "Record".ctid AS "place", pg_column_size("Record".*) AS "bytes" FROM "Record"
                  WHERE "subjectId" = $1 AND "Record"."category" = c."category"
                  ORDER BY "sortAt" DESC, "id" DESC LIMIT 50) AS r`,
      id,
      ["labs", "vitals"],
    );
    // Labs and vitals are the categories a source interleaves (both are Observations). A later category's rows may
    // fill blocks earlier rows left room in (PostgreSQL 15's free space map hands them out), so only these two are held
    // to the bound.
    for (const category of ["labs", "vitals"]) {
      const page = pages.filter((row) => row.category === category);
      expect(page, category).toHaveLength(50);
      // Rows laid out as read fill consecutive blocks (a row may land in an earlier block's leftover space); in the
      // source's order, a page of labs was one block per record.
      const bytes = page.reduce((sum, row) => sum + row.bytes, 0);
      expect(new Set(page.map((row) => row.block)).size, category).toBeLessThanOrEqual(Math.ceil(bytes / 8192) + 2);
    }
  });

  it("re-running the same facts writes nothing", async () => {
    const { id } = await subject();
    const facts = baselineFacts(id);
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts });
    const before = await db().record.findMany({ where: { subjectId: id }, orderBy: { id: "asc" } });
    const outcome = await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts });
    expect(outcome).toMatchObject({ upserts: 0, deletes: 0, unchanged: facts.length });
    expect(await db().record.findMany({ where: { subjectId: id }, orderBy: { id: "asc" } })).toEqual(before);
    expect(await feed(id)).toHaveLength(facts.length);
  });

  it("a changed fact is one upsert; a fact the source no longer has is tombstoned with one delete", async () => {
    const { id } = await subject();
    const facts = baselineFacts(id);
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts });
    const [changed, removed, ...rest] = facts;
    const edited: NormalizedFact = { ...changed!, record: { ...changed!.record, status: "entered-in-error" } as NormalizedFact["record"] };
    const outcome = await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts: [edited, ...rest] });
    expect(outcome).toMatchObject({ upserts: 1, deletes: 1, unchanged: rest.length });

    const tombstone = await db().record.findUniqueOrThrow({ where: { id: removed!.record.recordId } });
    expect(tombstone.deletedAt).not.toBeNull();
    const inOrder = (await feed(id)).sort((a, b) => (a.id < b.id ? -1 : 1));
    const latest = inOrder.slice(-2).map((change) => [change.recordId, change.changeType]);
    expect(latest).toEqual(expect.arrayContaining([[changed!.record.recordId, "upsert"], [removed!.record.recordId, "delete"]]));

    // The fact returning revives the same record id.
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts });
    expect((await db().record.findUniqueOrThrow({ where: { id: removed!.record.recordId } })).deletedAt).toBeNull();
  });

  it("a re-import with thousands of changed facts among new ones writes each once (changes staged in batches between COPYs)", async () => {
    const { id } = await subject();
    const all = normalizeBundle(scenarioBundle("long-history"), SOURCE_A, id).facts;
    expect(all.length).toBeGreaterThan(4_000);
    // Every other fact first; then all of them, with 2,500 of the stored ones changed (more than one staged batch).
    const first = all.filter((_, index) => index % 2 === 0);
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts: first });
    const changedIds = new Set(first.slice(0, 2_500).map((fact) => fact.record.recordId));
    const second = all.map((fact) =>
      changedIds.has(fact.record.recordId) ? { ...fact, record: { ...fact.record, warnings: ["changed on the second import"] } as NormalizedFact["record"] } : fact,
    );
    const outcome = await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts: second });
    const added = all.length - first.length;
    expect(outcome).toMatchObject({ upserts: added + 2_500, deletes: 0, unchanged: first.length - 2_500 });

    const records = await db().record.findMany({ where: { subjectId: id }, select: { id: true, data: true } });
    expect(records).toHaveLength(all.length);
    const warned = records.filter((record) => (record.data as { warnings?: string[] }).warnings?.includes("changed on the second import"));
    expect(new Set(warned.map((record) => record.id))).toEqual(changedIds);
    const changes = await feed(id);
    expect(changes).toHaveLength(first.length + added + 2_500);
    expect(new Set(changes.map((change) => `${change.category}/${change.sequence}`)).size).toBe(changes.length);
  });

  it("a record two sources report stays while either has it, naming the sources that still do", async () => {
    const { id } = await subject();
    const fromA = baselineFacts(id, SOURCE_A);
    const fromB = baselineFacts(id, SOURCE_B);
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts: fromA });
    await applySourceFacts({ subjectId: id, sourceId: SOURCE_B.sourceId, facts: fromB });
    const shared = fromA[0]!.record.recordId;
    const both = await db().record.findUniqueOrThrow({ where: { id: shared } });
    expect((both.data as { sources: { sourceId: string }[] }).sources.map((ref) => ref.sourceId)).toEqual(["src_a", "src_b"]);

    const outcome = await applySourceFacts({ subjectId: id, sourceId: SOURCE_A.sourceId, facts: [] });
    expect(outcome.deletes).toBe(0);
    const onlyB = await db().record.findUniqueOrThrow({ where: { id: shared } });
    expect(onlyB.deletedAt).toBeNull();
    expect((onlyB.data as { sources: { sourceId: string }[] }).sources.map((ref) => ref.sourceId)).toEqual(["src_b"]);

    await applySourceFacts({ subjectId: id, sourceId: SOURCE_B.sourceId, facts: [] });
    expect((await db().record.findUniqueOrThrow({ where: { id: shared } })).deletedAt).not.toBeNull();
  });

  it("concurrent imports of one subject serialize: no change lost, no sequence reused", async () => {
    const { id } = await subject();
    const facts = baselineFacts(id);
    const half = Math.floor(facts.length / 2);
    await Promise.all([
      applySourceFacts({ subjectId: id, sourceId: "src_1", facts: facts.slice(0, half) }),
      applySourceFacts({ subjectId: id, sourceId: "src_2", facts: facts.slice(half) }),
      applySourceFacts({ subjectId: id, sourceId: "src_3", facts }),
    ]);
    const changes = await feed(id);
    for (const category of new Set(changes.map((change) => change.category))) {
      const sequences = changes.filter((change) => change.category === category).map((change) => change.sequence);
      expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    }
    const records = await db().record.findMany({ where: { subjectId: id, deletedAt: null } });
    expect(records).toHaveLength(facts.length);
  });

  it("an import of another subject does not wait for a subject that is locked", async () => {
    const [first, second] = [await subject(), await subject()];
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query(`SELECT 1 FROM "Subject" WHERE id = $1 FOR UPDATE`, [first.id]);
    let firstDone = false;
    const blocked = applySourceFacts({ subjectId: first.id, sourceId: "src_a", facts: baselineFacts(first.id) }).then(() => {
      firstDone = true;
    });
    await applySourceFacts({ subjectId: second.id, sourceId: "src_a", facts: baselineFacts(second.id) });
    expect(firstDone).toBe(false);
    await holder.query("COMMIT");
    await holder.end();
    await blocked;
    expect(firstDone).toBe(true);
  });
});
