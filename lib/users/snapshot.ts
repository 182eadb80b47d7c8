import type { KeyAuth } from "@/lib/auth";
import { JsonText } from "@/lib/http";
import { CATEGORIES, feedCursor, parseCategoryList, presentFidelityReport, splitCategoryParam } from "@/lib/records";
import { sourceWarningCode } from "@/lib/sources";
import { readConsentedSections } from "./consented-sections";
import type { Snapshot } from "./schemas";
import { SCHEMA_VERSION } from "./schema-version";

/** A snapshot section holds a category's first records; `hasMore` sends the client to the category endpoint. */
export const SECTION_RECORDS = 1000;

type Section = NonNullable<Snapshot["sections"][keyof Snapshot["sections"]]>;
/** The snapshot as answered: each section's records are the stored JSON, spliced into the answer as text. */
export type SnapshotAnswer = Omit<Snapshot, "sections"> & { sections: Partial<Record<keyof Snapshot["sections"], Omit<Section, "records"> & { records: JsonText }>> };

/**
 * GET /users/{subject}/records: every category the receipt and the allowlist cover (narrowed by `categories`; others
 * are omitted, not refused), each with its first records and change cursor, all read in one statement (one
 * snapshot, with the consent that allows it, and the state of each source).
 */
export async function getHealthRecord(key: KeyAuth, subjectId: string, categoriesParam: string | undefined): Promise<SnapshotAnswer> {
  const asked = categoriesParam === undefined ? CATEGORIES : parseCategoryList(splitCategoryParam(categoriesParam));
  const { authorization, sections: read, sources } = await readConsentedSections(key, subjectId, asked, SECTION_RECORDS, { sources: true });
  const { scope } = authorization;

  const sections: SnapshotAnswer["sections"] = {};
  for (const [category, page] of read) {
    sections[category] = { records: page.records, hasMore: page.next !== null, changeCursor: feedCursor.encode(scope, category, { q: page.lastSequence }) };
  }

  const warnings = sources.flatMap((source): Snapshot["warnings"] =>
    source.syncStatus === "failed" || source.syncStatus === "partial"
      ? [failureWarning(source)]
      : source.syncStatus === "synced"
        ? []
        : [{ code: "source_syncing", message: `${source.providerName} has not finished importing.`, sourceId: source.id }],
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
      providerName: source.providerName,
      status: source.syncStatus,
      lastSyncedAt: source.lastSyncedAt?.toISOString() ?? null,
      // Record counts only of the categories this read is authorized for (the others read 0).
      fidelity: presentFidelityReport(
        source.importId ? { id: source.importId, finishedAt: source.importFinishedAt, recordCounts: source.recordCounts, fidelity: source.fidelity } : null,
        authorization.categories,
      ),
    })),
    sections,
    meta: { schemaVersion: SCHEMA_VERSION, generatedAt: new Date().toISOString() },
  };
}

/**
 * A failed source's warning: `reauthorization_required` when the health system refused its tokens (the patient must
 * sign in to it again through Connect; it is not synced again until then), else the transient `source_unavailable`.
 */
function failureWarning(source: { id: string; providerName: string; lastError: string | null }): Snapshot["warnings"][number] {
  if (sourceWarningCode(source.lastError) === "reauthorization_required") {
    return {
      code: "reauthorization_required",
      message: `${source.providerName} needs the patient to sign in again: send them through Connect. It is not synced until they do; records from its last import are shown.`,
      sourceId: source.id,
    };
  }
  return { code: "source_unavailable", message: `${source.providerName} could not be read; records from its last import are shown.`, sourceId: source.id };
}
