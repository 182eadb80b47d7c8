import { Prisma, withTransaction, type Tx } from "@/lib/db";
import { CATEGORIES, type Category } from "../categories";
import type { NormalizedFact } from "../normalize";
import type { NormalizedRecord } from "../schemas";
import { reserveSequences } from "./change-sequences";
import { contentHash } from "./content-hash";
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

/** What an import changed: feed entries written (upserts, tombstones), facts left alone, and the categories touched. */
export type ApplyOutcome = { upserts: number; deletes: number; unchanged: number; categories: Category[] };

type StoredRecord = {
  id: string;
  category: string;
  factKey: string;
  data: NormalizedRecord;
  contentHash: string;
  sources: Contribution[];
  deletedAt: Date | null;
};

type RecordWrite = {
  id: string;
  category: Category;
  factKey: string;
  data: NormalizedRecord;
  contributions: Contribution[];
  insert: boolean;
  /** Whether what the API serves changed; a change only to internal provenance is written without a feed entry. */
  visible: boolean;
};
type Change = { category: Category; recordId: string; changeType: "upsert" | "delete" };

/**
 * Brings the store in line with one source's current facts, in one transaction: new and changed facts are written
 * (a record whose content hash is unchanged is left alone), facts the source no longer has lose that source, and a
 * record no source has any more is tombstoned. Every real change appends one entry to its category's feed. Running
 * it again with the same facts writes nothing. Imports of one subject run one at a time (the subject row is locked);
 * imports of different subjects never wait on each other.
 */
export async function applySourceFacts({ subjectId, sourceId, facts, categories: covered = CATEGORIES }: SourceFacts): Promise<ApplyOutcome> {
  return withTransaction("ReadCommitted", async (tx) => {
    await lockSubject(tx, subjectId);
    const stored = await storedRecords(tx, subjectId);
    const byKey = new Map(stored.map((record) => [factKeyOf(record.category, record.factKey), record]));

    const writes: RecordWrite[] = [];
    const tombstones: StoredRecord[] = [];
    let unchanged = 0;
    const seen = new Set<string>();

    for (const fact of facts) {
      const key = factKeyOf(fact.category, fact.factKey);
      if (seen.has(key)) continue;
      seen.add(key);
      const existing = byKey.get(key);
      const contribution: Contribution = { sourceId, hash: contentHash(fact.record), refs: fact.record.sources };
      const live = existing && existing.deletedAt === null ? existing : undefined;
      const contributions = live ? withContribution(live.sources, contribution) : [contribution];
      // The first contributor's report is the record's content; a later source only adds its references.
      const owner = !live || contributions[0]?.sourceId === sourceId ? fact.record : live.data;
      const data = { ...owner, sources: publicSources(contributions) } as NormalizedRecord;
      const visible = !live || live.contentHash !== contentHash(data);
      if (!visible && sameContributions(live.sources, contributions)) {
        unchanged += 1;
        continue;
      }
      writes.push({ id: existing?.id ?? fact.record.recordId, category: fact.category, factKey: fact.factKey, data, contributions, insert: !existing, visible });
    }

    for (const record of stored) {
      if (record.deletedAt !== null || seen.has(factKeyOf(record.category, record.factKey)) || !covered.includes(record.category as Category)) continue;
      if (!record.sources.some((contribution) => contribution.sourceId === sourceId)) continue;
      const contributions = withoutSource(record.sources, sourceId);
      if (contributions.length === 0) {
        tombstones.push(record);
        continue;
      }
      const data = { ...record.data, sources: publicSources(contributions) } as NormalizedRecord;
      writes.push({ id: record.id, category: record.category as Category, factKey: record.factKey, data, contributions, insert: false, visible: true });
    }

    await writeRecords(tx, subjectId, writes);
    await tombstone(tx, tombstones);
    const changes: Change[] = [
      ...writes.filter((write) => write.visible).map((write) => ({ category: write.category, recordId: write.id, changeType: "upsert" as const })),
      ...tombstones.map((record) => ({ category: record.category as Category, recordId: record.id, changeType: "delete" as const })),
    ];
    await appendChanges(tx, subjectId, changes);
    const categories = CATEGORIES.filter((category) => changes.some((change) => change.category === category));
    return { upserts: changes.length - tombstones.length, deletes: tombstones.length, unchanged, categories };
  });
}

function factKeyOf(category: string, factKey: string): string {
  return `${category}\u0000${factKey}`;
}

async function lockSubject(tx: Tx, subjectId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT "id" FROM "Subject" WHERE "id" = ${subjectId} FOR UPDATE`);
  if (rows.length === 0) throw new Error(`No subject ${subjectId}`);
}

async function storedRecords(tx: Tx, subjectId: string): Promise<StoredRecord[]> {
  const rows = await tx.record.findMany({
    where: { subjectId },
    select: { id: true, category: true, factKey: true, data: true, contentHash: true, sources: true, deletedAt: true },
  });
  return rows as unknown as StoredRecord[];
}

function sameContributions(left: readonly Contribution[], right: readonly Contribution[]): boolean {
  return contentHash(left) === contentHash(right);
}

async function writeRecords(tx: Tx, subjectId: string, writes: readonly RecordWrite[]): Promise<void> {
  const row = (write: RecordWrite) => ({
    data: write.data as unknown as Prisma.InputJsonValue,
    contentHash: contentHash(write.data),
    sources: write.contributions as unknown as Prisma.InputJsonValue,
    sortAt: recordSortAt(write.category, write.data),
    deletedAt: null,
  });
  const inserts = writes.filter((write) => write.insert);
  if (inserts.length > 0) {
    await tx.record.createMany({
      data: inserts.map((write) => ({ id: write.id, subjectId, category: write.category, factKey: write.factKey, ...row(write) })),
    });
  }
  for (const write of writes) {
    if (!write.insert) await tx.record.update({ where: { id: write.id }, data: row(write) });
  }
}

async function tombstone(tx: Tx, records: readonly StoredRecord[]): Promise<void> {
  if (records.length === 0) return;
  await tx.record.updateMany({
    where: { id: { in: records.map((record) => record.id) } },
    data: { deletedAt: new Date(), sources: [] },
  });
}

/** One feed entry per change, sequences reserved per category, in a fixed order so replays are deterministic. */
async function appendChanges(tx: Tx, subjectId: string, changes: readonly Change[]): Promise<void> {
  const rows: Prisma.RecordChangeCreateManyInput[] = [];
  for (const category of CATEGORIES) {
    const ofCategory = changes.filter((change) => change.category === category).sort((a, b) => (a.recordId < b.recordId ? -1 : 1));
    if (ofCategory.length === 0) continue;
    const first = await reserveSequences(tx, subjectId, category, ofCategory.length);
    ofCategory.forEach((change, index) => rows.push({ subjectId, category, sequence: first + index, recordId: change.recordId, changeType: change.changeType }));
  }
  if (rows.length > 0) await tx.recordChange.createMany({ data: rows });
}
