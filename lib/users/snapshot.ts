import type { KeyAuth } from "@/lib/auth";
import { authorizeSubjectRead } from "@/lib/consent";
import { db, withTransaction } from "@/lib/db";
import { feedCursor, lastSequence, parseCategoryList, readCategoryPage, splitCategoryParam, type Category } from "@/lib/records";
import type { Snapshot } from "./schemas";
import { SCHEMA_VERSION } from "./schema-version";

/** A snapshot section holds a category's first records; `hasMore` sends the client to the category endpoint. */
export const SECTION_RECORDS = 1000;

/**
 * GET /users/{subject}/records: every category the receipt and the allowlist cover (narrowed by `categories`; others
 * are omitted, not refused), each with its first records and change cursor, all read in one repeatable-read
 * transaction, with the consent and the state of each source.
 */
export async function readSnapshot(key: KeyAuth, subjectId: string, categoriesParam: string | undefined): Promise<Snapshot> {
  const asked = categoriesParam === undefined ? null : parseCategoryList(splitCategoryParam(categoriesParam));
  const authorization = await authorizeSubjectRead(key, subjectId);
  const categories = authorization.categories.filter((category) => asked === null || asked.includes(category));
  const { scope } = authorization;

  const sections = await withTransaction("RepeatableRead", async (tx) => {
    const read: Snapshot["sections"] = {};
    for (const category of categories) {
      const page = await readCategoryPage(tx, subjectId, category, SECTION_RECORDS, null);
      const sequence = await lastSequence(tx, subjectId, category);
      read[category as Category] = {
        records: page.records,
        hasMore: page.next !== null,
        changeCursor: feedCursor.encode(scope, category, { q: sequence }),
      };
    }
    return read;
  });

  const sources = await db().source.findMany({
    where: { subjectId },
    orderBy: { createdAt: "asc" },
    select: { id: true, providerId: true, syncStatus: true, lastSyncedAt: true, lastError: true, provider: { select: { name: true } } },
  });
  const warnings = sources.flatMap((source): Snapshot["warnings"] =>
    source.syncStatus === "failed" || source.syncStatus === "partial"
      ? [{ code: "source_unavailable", message: `${source.provider.name} could not be read; records from its last import are shown.`, sourceId: source.id }]
      : source.syncStatus === "synced"
        ? []
        : [{ code: "source_syncing", message: `${source.provider.name} has not finished importing.`, sourceId: source.id }],
  );

  return {
    subject: subjectId,
    receiptId: authorization.receipt.id,
    syncStatus: warnings.length === 0 ? "complete" : "partial",
    warnings,
    consent: { status: "active", categories: authorization.receipt.categories, expiresAt: authorization.receipt.expiresAt.toISOString() },
    sources: sources.map((source) => ({
      sourceId: source.id,
      providerId: source.providerId,
      providerName: source.provider.name,
      status: source.syncStatus,
      lastSyncedAt: source.lastSyncedAt?.toISOString() ?? null,
    })),
    sections,
    meta: { schemaVersion: SCHEMA_VERSION, generatedAt: new Date().toISOString() },
  };
}
