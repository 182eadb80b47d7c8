import type pg from "pg";
import { copyRows, withPgTransaction } from "@/lib/db";
import { CATEGORIES, type Category } from "../categories";
import type { NormalizedFact } from "../normalize";
import type { NormalizedRecord } from "../schemas";
import type { SerializedContext, SerializedFact } from "../normalize/paged-normalization";
import { reserveSequences } from "./change-sequences";
import { canonicalJson, hashedJson, hashOf } from "./content-hash";
import { inReadOrder } from "./read-order";
import { publicSources, withContribution, withoutSource, type Contribution } from "./provenance";
import { recordSortAt } from "./sort-time";

export type SourceFacts = {
  subjectId: string;
  sourceId: string;
  /** The source's whole current state, normalized with the subject as scope (so record ids are the subject's). */
  facts: readonly NormalizedFact[];
  /**
   * The categories the facts cover (default all): the source's records of other categories were not read (the
   * patient does not share them now), so they are left as they are rather than taken for deleted.
   */
  categories?: readonly Category[];
};

/** The same, the facts as canonical JSON, read one at a time (a paged normalization's, see paged-normalization.ts). */
export type SerializedSourceFacts = Omit<SourceFacts, "facts"> & {
  facts: Iterable<SerializedFact>;
  /**
   * The context resources the source sent (FHIR view, lib/fhir/stored-resource.ts), read after the facts: when
   * given, they replace the source's earlier ones; when absent, those are left as they are.
   */
  context?: Iterable<SerializedContext>;
};

/** What an import changed: feed entries written (upserts, tombstones), facts left alone, and the categories touched. */
export type ApplyOutcome = { upserts: number; deletes: number; unchanged: number; categories: Category[] };

type StoredRecord = {
  id: string;
  category: string;
  factKey: string;
  /** Read only where the merge needs it (see storedRecords). */
  data: NormalizedRecord | null;
  /** The stored FHIR resource's text, read where `data` is. */
  resource: string | null;
  contentHash: string;
  sources: Contribution[];
  deletedAt: Date | null;
};

/** A change to a stored record (a fact it already holds, reported again or no longer). */
type RecordWrite = {
  id: string;
  category: Category;
  /** `data` in canonical JSON, as written. */
  json: string;
  /** contentHash of `data`. */
  hash: string;
  /** The FHIR resource, canonical JSON (null: none). */
  resource: string | null;
  contributions: Contribution[];
  sortAt: Date;
  /** Whether what the API serves changed; a change only to internal provenance is written without a feed entry. */
  visible: boolean;
};

const IMPORT_TIMEOUT_MS = 120_000;

/** Changes to stored records staged per this many: what the write holds of the source beyond its keys. */
const FACTS_PER_WRITE = 1_000;

type Change = { category: Category; recordId: string; changeType: "upsert" | "delete" };

/**
 * Brings the store in line with one source's current facts, in one transaction: new and changed facts are written
 * (a record whose content hash is unchanged is left alone), facts the source no longer has lose that source, and a
 * record no source has any more is tombstoned. Every real change appends one entry to its category's feed. Running
 * it again with the same facts writes nothing. Imports of one subject run one at a time (the subject row is locked);
 * imports of different subjects never wait on each other.
 */
export async function applySourceFacts({ facts, ...rest }: SourceFacts): Promise<ApplyOutcome> {
  return applySerializedFacts({ ...rest, facts: serialized(facts) });
}

/** The first fact of each key (as applySerializedFacts keeps them), in read order. */
function* serialized(facts: readonly NormalizedFact[]): Generator<SerializedFact> {
  const firsts = new Map<string, NormalizedFact>();
  for (const fact of facts) {
    const key = factKeyOf(fact.category, fact.factKey);
    if (!firsts.has(key)) firsts.set(key, fact);
  }
  for (const { category, factKey, record, sortAt } of inReadOrder([...firsts.values()])) {
    yield { category, factKey, recordId: record.recordId, json: canonicalJson(record), sortAt, sources: record.sources, warnings: record.warnings ?? [] };
  }
}

/**
 * applySourceFacts for facts read one at a time, in read order (read-order.ts: new records are written in the order
 * they come, so a category's records lie on consecutive heap pages): only the keys of the facts seen so far (the
 * first of each (category, factKey) is the one written, and a stored fact whose key never came is no longer
 * reported) and up to a thousand changes to stored records stay in memory; new records stream to COPY as they come.
 */
export async function applySerializedFacts({ subjectId, sourceId, facts, context, categories: covered = CATEGORIES }: SerializedSourceFacts): Promise<ApplyOutcome> {
  return withPgTransaction(
    async (tx) => {
      const now = await lockSubject(tx, subjectId);
      // An import still running when the retention purge deleted the subject's data (lib/consent/purge-subject.ts,
      // which takes the same lock) writes nothing, until the patient consents again.
      if (await purgedWithoutConsent(tx, subjectId)) return { upserts: 0, deletes: 0, unchanged: 0, categories: [] };
      const stored = await storedRecords(tx, subjectId, sourceId);
      const byKey = new Map(stored.map((record) => [factKeyOf(record.category, record.factKey), record]));
      const reported = new Set<string>();
      const changes: Change[] = [];
      let staged = false;
      let unchanged = 0;

      // New records stream to one COPY as the facts are read, so this process drafts rows while PostgreSQL writes
      // them; a COPY ends (and the next starts) only to stage a thousand changes to stored records.
      const pending = facts[Symbol.iterator]();
      let read = false;
      let writes: RecordWrite[] = [];
      function* newRecords(): Generator<SerializedFact> {
        for (let next = pending.next(); !next.done; next = pending.next()) {
          const fact = next.value;
          const key = factKeyOf(fact.category, fact.factKey);
          if (reported.has(key)) continue;
          reported.add(key);
          const existing = byKey.get(key);
          if (!existing) {
            changes.push({ category: fact.category, recordId: fact.recordId, changeType: "upsert" });
            yield fact;
            continue;
          }
          const write = factWrite(fact, existing, sourceId);
          if (write === null) unchanged += 1;
          else {
            writes.push(write);
            if (write.visible) changes.push({ category: write.category, recordId: write.id, changeType: "upsert" });
            if (writes.length >= FACTS_PER_WRITE) return;
          }
        }
        read = true;
      }
      while (!read) {
        await insertRecords(tx, subjectId, sourceId, now, newRecords());
        staged = (await stageWrites(tx, writes, staged)) || staged;
        writes = [];
      }

      const tombstones: StoredRecord[] = [];
      for (const record of stored) {
        if (record.deletedAt !== null || reported.has(factKeyOf(record.category, record.factKey)) || !covered.includes(record.category as Category)) continue;
        if (!record.sources.some((contribution) => contribution.sourceId === sourceId)) continue;
        const contributions = withoutSource(record.sources, sourceId);
        if (contributions.length === 0) {
          tombstones.push(record);
          changes.push({ category: record.category as Category, recordId: record.id, changeType: "delete" });
          continue;
        }
        const data = { ...record.data!, sources: publicSources(contributions) } as NormalizedRecord;
        writes.push({ id: record.id, category: record.category as Category, ...hashedJson(data), resource: record.resource, contributions, sortAt: recordSortAt(record.category as Category, data), visible: true });
        changes.push({ category: record.category as Category, recordId: record.id, changeType: "upsert" });
      }
      staged = (await stageWrites(tx, writes, staged)) || staged;

      if (staged) await updateStaged(tx);
      await tombstone(tx, tombstones);
      await appendChanges(tx, subjectId, changes);
      if (context) await replaceContext(tx, subjectId, sourceId, context);
      const categories = CATEGORIES.filter((category) => changes.some((change) => change.category === category));
      return { upserts: changes.length - tombstones.length, deletes: tombstones.length, unchanged, categories };
    },
    // A whole source is one transaction (a reader of the feed sees all of an import or none of it); a 50,000-record
    // history takes seconds to write, more than the request path's limit.
    { timeoutMs: IMPORT_TIMEOUT_MS },
  );
}

/** How a reported fact changes the record that holds its key: null when it changes nothing. */
function factWrite(fact: SerializedFact, existing: StoredRecord, sourceId: string): RecordWrite | null {
  const hash = hashOf(fact.json);
  const resource = fact.resource ?? null;
  const contribution: Contribution = { sourceId, hash, refs: fact.sources, ...(resource === null ? {} : { fhir: hashOf(resource) }) };
  const live = existing.deletedAt === null ? existing : undefined;
  const contributions = live ? withContribution(live.sources, contribution) : [contribution];
  const write = { id: existing.id, category: fact.category, contributions };
  if (contributions.length === 1) {
    // The only contributor: the record is the fact as reported (its public sources are the fact's own).
    const visible = !live || live.contentHash !== hash || live.sources[0]?.fhir !== contribution.fhir;
    if (!visible && sameContributions(live.sources, contributions)) return null;
    return { ...write, json: fact.json, hash, resource, sortAt: fact.sortAt, visible };
  }
  // The first contributor's report is the record's content (and its resource the FHIR view's); a later source only
  // adds its references.
  const owns = contributions[0]?.sourceId === sourceId;
  const owner = owns ? (JSON.parse(fact.json) as NormalizedRecord) : live!.data!;
  const data = { ...owner, sources: publicSources(contributions) } as NormalizedRecord;
  const hashed = hashedJson(data);
  const visible = live!.contentHash !== hashed.hash || live!.sources[0]?.fhir !== contributions[0]?.fhir;
  if (!visible && sameContributions(live!.sources, contributions)) return null;
  return { ...write, ...hashed, resource: owns ? resource : live!.resource, sortAt: recordSortAt(fact.category, data), visible };
}

function factKeyOf(category: string, factKey: string): string {
  return `${category}\u0000${factKey}`;
}

/**
 * Locks the subject's row and returns the transaction's start time as its `timestamp(3)` columns hold it (what
 * `now()` stores), for the rows COPY writes: COPY takes values, not expressions.
 */
async function lockSubject(tx: pg.ClientBase, subjectId: string): Promise<string> {
  const { rows } = await tx.query<{ now: string }>(`SELECT now()::timestamp(3)::text AS "now" FROM "Subject" WHERE "id" = $1 FOR UPDATE`, [subjectId]);
  if (rows.length === 0) throw new Error(`No subject ${subjectId}`);
  return rows[0]!.now;
}

/** The subject's data was purged after its consent ended, and no receipt has been granted since. */
async function purgedWithoutConsent(tx: pg.ClientBase, subjectId: string): Promise<boolean> {
  const { rows } = await tx.query<{ purged: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM "ConsentReceipt" WHERE "subjectId" = $1 AND "purgedAt" IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM "ConsentReceipt" WHERE "subjectId" = $1 AND "purgedAt" IS NULL) AS "purged"`,
    [subjectId],
  );
  return rows[0]!.purged;
}

/**
 * The subject's records without their content, except where the merge needs it: a live record another source
 * contributes to (its content may be another source's report, or its public sources change).
 */
async function storedRecords(tx: pg.ClientBase, subjectId: string, sourceId: string): Promise<StoredRecord[]> {
  const { rows } = await tx.query<StoredRecord>(
    `SELECT "id", "category", "factKey", "contentHash", "sources", "deletedAt",
       CASE WHEN "deletedAt" IS NULL AND (jsonb_array_length("sources") > 1 OR "sources"->0->>'sourceId' IS DISTINCT FROM $2)
         THEN "data" END AS "data",
       CASE WHEN "deletedAt" IS NULL AND (jsonb_array_length("sources") > 1 OR "sources"->0->>'sourceId' IS DISTINCT FROM $2)
         THEN "resource"::text END AS "resource"
     FROM "Record" WHERE "subjectId" = $1`,
    [subjectId, sourceId],
  );
  return rows;
}

/** Contributions are equal when the same sources reported the same hashes (a hash covers the source's references). */
function sameContributions(left: readonly Contribution[], right: readonly Contribution[]): boolean {
  return (
    left.length === right.length &&
    left.every((contribution, index) => contribution.sourceId === right[index]!.sourceId && contribution.hash === right[index]!.hash && contribution.fhir === right[index]!.fhir)
  );
}

// Rows stream to PostgreSQL with COPY (lib/db/copy-rows.ts): the server parses each value once by its column's type,
// and no statement carries the whole import as one parameter. Through one JSON document (`json_to_recordset`), the
// server spent most of an import re-parsing every record's JSON; through array parameters, the driver spent as long
// escaping them. The record's JSON is the canonical text its hash was computed from, so it is serialized once.
const recordValues = (write: Pick<RecordWrite, "json" | "hash" | "resource" | "contributions" | "sortAt">) => [
  write.json,
  write.hash,
  write.resource,
  JSON.stringify(write.contributions),
  write.sortAt.toISOString(),
];

/**
 * New records, each the fact as its one source reported it, in the order given (read order); a row is hashed as the
 * COPY asks for it. No COPY is sent for none.
 */
async function insertRecords(tx: pg.ClientBase, subjectId: string, sourceId: string, now: string, facts: Iterator<SerializedFact>): Promise<void> {
  const first = facts.next();
  if (first.done) return;
  function* rows() {
    for (let next = first; !next.done; next = facts.next()) {
      const { category, factKey, recordId, json, sortAt, sources } = next.value;
      const hash = hashOf(json);
      const resource = next.value.resource ?? null;
      const contributions: Contribution[] = [{ sourceId, hash, refs: sources, ...(resource === null ? {} : { fhir: hashOf(resource) }) }];
      yield [recordId, subjectId, category, factKey, ...recordValues({ json, hash, resource, contributions, sortAt }), now];
    }
  }
  await copyRows(tx, "Record", ["id", "subjectId", "category", "factKey", "data", "contentHash", "resource", "sources", "sortAt", "updatedAt"], rows());
}

/** Updates go through a table of this transaction's own (dropped at its end), COPY-filled, joined by id. */
async function stageWrites(tx: pg.ClientBase, writes: readonly RecordWrite[], created: boolean): Promise<boolean> {
  if (writes.length === 0) return false;
  if (!created) {
    await tx.query(
      `CREATE TEMPORARY TABLE "RecordUpdate" ("id" text PRIMARY KEY, "data" json, "contentHash" text, "resource" json, "sources" jsonb, "sortAt" timestamp(3), "visible" boolean) ON COMMIT DROP`,
    );
  }
  await copyRows(
    tx,
    "RecordUpdate",
    ["id", "data", "contentHash", "resource", "sources", "sortAt", "visible"],
    writes.map((write) => [write.id, ...recordValues(write), write.visible ? "t" : "f"]),
  );
  return true;
}

async function updateStaged(tx: pg.ClientBase): Promise<void> {
  await tx.query(
    // A write that changes only internal provenance leaves the FHIR view's version and lastUpdated.
    `UPDATE "Record" AS r SET "data" = w."data", "contentHash" = w."contentHash", "resource" = w."resource", "sources" = w."sources", "sortAt" = w."sortAt",
       "deletedAt" = NULL,
       "version" = r."version" + CASE WHEN w."visible" THEN 1 ELSE 0 END,
       "updatedAt" = CASE WHEN w."visible" THEN now() ELSE r."updatedAt" END
     FROM "RecordUpdate" AS w
     WHERE r."id" = w."id"`,
  );
}

async function tombstone(tx: pg.ClientBase, records: readonly StoredRecord[]): Promise<void> {
  if (records.length === 0) return;
  await tx.query(`UPDATE "Record" SET "deletedAt" = now(), "sources" = '[]'::jsonb, "version" = "version" + 1, "updatedAt" = now() WHERE "id" = ANY($1::text[])`, [
    records.map((record) => record.id),
  ]);
}

/** One feed entry per change, sequences reserved per category, in a fixed order so replays are deterministic. */
async function appendChanges(tx: pg.ClientBase, subjectId: string, changes: readonly Change[]): Promise<void> {
  const byCategory = CATEGORIES.map((category) => ({
    category,
    changes: changes.filter((change) => change.category === category).sort((a, b) => (a.recordId < b.recordId ? -1 : 1)),
  })).filter((group) => group.changes.length > 0);
  if (byCategory.length === 0) return;
  const firsts = await reserveSequences(tx, subjectId, byCategory.map((group) => ({ category: group.category, count: group.changes.length })));
  await copyRows(
    tx,
    "RecordChange",
    ["subjectId", "category", "sequence", "recordId", "changeType"],
    byCategory.flatMap((group) => group.changes.map((change, index) => [subjectId, group.category, String(firsts.get(group.category)! + index), change.recordId, change.changeType])),
  );
}

/**
 * The source's context resources become exactly those given: a new or changed one (by its hash) is written with
 * its version advanced, one the source no longer sent is deleted. COPY-staged, as the records are.
 */
async function replaceContext(tx: pg.ClientBase, subjectId: string, sourceId: string, context: Iterable<SerializedContext>): Promise<void> {
  await tx.query(`CREATE TEMPORARY TABLE "FhirContextUpdate" ("id" text PRIMARY KEY, "resourceType" text, "resource" json, "contentHash" text) ON COMMIT DROP`);
  const seen = new Set<string>();
  function* rows() {
    for (const { id, resourceType, json } of context) {
      if (seen.has(id)) continue;
      seen.add(id);
      yield [id, resourceType, json, hashOf(json)];
    }
  }
  await copyRows(tx, "FhirContextUpdate", ["id", "resourceType", "resource", "contentHash"], rows());
  await tx.query(
    `INSERT INTO "FhirContext" ("id", "subjectId", "sourceId", "resourceType", "resource", "contentHash")
     SELECT "id", $1, $2, "resourceType", "resource", "contentHash" FROM "FhirContextUpdate"
     ON CONFLICT ("id") DO UPDATE SET "resource" = excluded."resource", "contentHash" = excluded."contentHash",
       "version" = "FhirContext"."version" + 1, "updatedAt" = now()
     WHERE "FhirContext"."contentHash" IS DISTINCT FROM excluded."contentHash"`,
    [subjectId, sourceId],
  );
  await tx.query(
    `DELETE FROM "FhirContext" AS c WHERE c."subjectId" = $1 AND c."sourceId" = $2 AND NOT EXISTS (SELECT 1 FROM "FhirContextUpdate" AS u WHERE u."id" = c."id")`,
    [subjectId, sourceId],
  );
}
