import type pg from "pg";
import { DEFAULT_RECEIPT_DAYS } from "@/lib/consent";
import { copyRows, withPgTransaction } from "@/lib/db";
import { newId } from "@/lib/ids";
import { sha256Hex as hashOf } from "@/lib/sha256";
import type { Bundle } from "fhir/r4";
import { CATEGORIES, memorySpool, PagedNormalization, type Category, type SerializedContext, type SerializedFact, type SourceInfo } from "@/lib/records";

/**
 * A new subject's first import: its source, the facts normalized with the subject as scope (in read order, each with
 * the FHIR resource the FHIR view serves) and the source's context resources (Encounter, Practitioner, ...).
 */
export type FirstImport = { subjectId: string; sourceId: string; facts: readonly SerializedFact[]; context: readonly SerializedContext[] };

/** A Bundle normalized as an import normalizes a source (a paged normalization, one page): facts in read order with their resources, and the context resources. */
export function normalizeForImport(bundle: Bundle, source: SourceInfo, subjectId: string): { facts: SerializedFact[]; context: SerializedContext[] } {
  const entries = (bundle.entry ?? []).map((entry) => ({ resource: entry.resource as unknown, fullUrl: entry.fullUrl ?? null }));
  const normalization = new PagedNormalization(source, subjectId, memorySpool());
  normalization.indexPage(entries);
  normalization.normalizePage(entries);
  normalization.finish();
  return { facts: [...normalization.facts()], context: [...normalization.contextFacts()] };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WRITE_TIMEOUT_MS = 300_000;

/**
 * Many new subjects' consent and first import in one transaction, a few statements in all: for each subject, the
 * rows `grantReceipt` (an active receipt for `categories`, expiring after the default term) and `applySerializedFacts`
 * (its records with their FHIR resources, its context resources, one feed entry per record, its change counters) write for a subject that has no receipt and no
 * records yet. The product writes one subject per transaction, a dozen round trips and a commit each; the bench seeds
 * a million records, so it writes the same rows a batch at a time (seed-batch.int.test.ts compares the two).
 */
export async function writeFirstImports(applicationId: string, imports: readonly FirstImport[], categories: readonly Category[], now = new Date()): Promise<void> {
  const grantedAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + DEFAULT_RECEIPT_DAYS * DAY_MS).toISOString();
  const receipts = imports.map(({ subjectId }) => [newId("cr_"), applicationId, "sandbox", subjectId, `{${categories.join(",")}}`, "active", grantedAt, expiresAt]);

  const records: (string | null)[][] = [];
  const changes: string[][] = [];
  const counters: string[][] = [];
  const contexts: string[][] = [];
  for (const { subjectId, sourceId, facts, context } of imports) {
    // As applySerializedFacts reads a source's facts: the first of each (category, factKey) is the one written, in
    // the order they come (a paged normalization's facts come in read order).
    const seen = new Set<string>();
    const firsts = facts.filter((fact) => {
      const key = `${fact.category}\u0000${fact.factKey}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const byCategory = new Map<Category, string[]>();
    for (const fact of firsts) {
      const hash = hashOf(fact.json);
      const resource = fact.resource ?? null;
      const contributions = [{ sourceId, hash, refs: fact.sources, ...(resource === null ? {} : { fhir: hashOf(resource) }) }];
      records.push([fact.recordId, subjectId, fact.category, fact.factKey, fact.json, hash, resource, JSON.stringify(contributions), fact.sortAt.toISOString()]);
      const ids = byCategory.get(fact.category);
      if (ids) ids.push(fact.recordId);
      else byCategory.set(fact.category, [fact.recordId]);
    }
    for (const { id, resourceType, json } of context) contexts.push([id, subjectId, sourceId, resourceType, json, hashOf(json)]);
    // The feed as applySourceFacts appends it: categories in their fixed order, each category's records by id.
    for (const category of CATEGORIES) {
      const ids = (byCategory.get(category) ?? []).sort((a, b) => (a < b ? -1 : 1));
      if (ids.length === 0) continue;
      ids.forEach((recordId, index) => changes.push([subjectId, category, String(index + 1), recordId, "upsert"]));
      counters.push([subjectId, category, String(ids.length)]);
    }
  }

  await withPgTransaction(
    async (tx) => {
      const stamp = await transactionTime(tx);
      await copyRows(tx, "ConsentReceipt", ["id", "applicationId", "environment", "subjectId", "categories", "status", "grantedAt", "expiresAt"], receipts);
      await copyRows(tx, "Record", ["id", "subjectId", "category", "factKey", "data", "contentHash", "resource", "sources", "sortAt", "updatedAt"], records.map((row) => [...row, stamp]));
      await copyRows(tx, "FhirContext", ["id", "subjectId", "sourceId", "resourceType", "resource", "contentHash", "updatedAt"], contexts.map((row) => [...row, stamp]));
      await copyRows(tx, "ChangeCounter", ["subjectId", "category", "lastSequence"], counters);
      await copyRows(tx, "RecordChange", ["subjectId", "category", "sequence", "recordId", "changeType"], changes);
    },
    { timeoutMs: WRITE_TIMEOUT_MS },
  );
}

/** The transaction's start time as the `timestamp(3)` columns hold it (what `now()` stores, as applySourceFacts writes). */
async function transactionTime(tx: pg.ClientBase): Promise<string> {
  const { rows } = await tx.query<{ now: string }>(`SELECT now()::timestamp(3)::text AS "now"`);
  return rows[0]!.now;
}
