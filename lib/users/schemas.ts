import { z } from "zod";
import { CATEGORIES, fidelityReportSchema, recordSchemas } from "@/lib/records/schemas";

const category = z.enum(CATEGORIES);
const isoTime = z.string().describe("UTC, millisecond precision, Z suffix.");

/** Any category's record; each category's shape is its own component. */
export const anyRecordSchema = z.union(Object.values(recordSchemas) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]).meta({
  id: "Record",
  description: "A normalized record of one of the ten categories.",
});

export const userSchema = z
  .object({
    id: z.string().describe("The subject (u_)."),
    receiptId: z.string().describe("The active share receipt (cr_)."),
    categories: z.array(category).describe("What the receipt covers."),
    connectedAt: isoTime.describe("When the receipt was granted."),
    expiresAt: isoTime,
  })
  .meta({ id: "User", description: "A subject that shares records with the application now." });

export const userListSchema = z
  .object({ data: z.array(userSchema), hasMore: z.boolean(), nextCursor: z.string().nullable() })
  .meta({ id: "UserList", description: "Subjects with an active share receipt, newest first." });

const recordsMetaSchema = z.object({
  changeCursor: z.string().describe("Starts this category's change feed at this page's state; save it after a full read."),
  schemaVersion: z.literal(2),
});

export const categoryPageSchema = z
  .object({ data: z.array(anyRecordSchema), hasMore: z.boolean(), nextCursor: z.string().nullable(), meta: recordsMetaSchema })
  .meta({ id: "CategoryRecordsPage", description: "One page of a category's records, newest clinical time first, then id." });

export const changeItemSchema = z
  .object({
    sequence: z.number().int().positive().describe("Strictly increasing within the subject and category; apply in this order."),
    changeType: z.enum(["upsert", "delete"]),
    recordId: z.string(),
    record: anyRecordSchema.nullable().describe("The record now; null for a delete, or for an upsert deleted since."),
  })
  .meta({ id: "RecordChange", description: "One change of a category's records." });

export const changePageSchema = z
  .object({
    data: z.array(changeItemSchema),
    hasMore: z.boolean(),
    nextCursor: z.string().describe("Read on from here; an empty page still returns one to poll with."),
  })
  .meta({ id: "RecordChangePage", description: "Changes after a cursor, in sequence order." });

const sectionSchema = z.object({
  records: z.array(anyRecordSchema).describe("The category's first 1,000 records in page order."),
  hasMore: z.boolean().describe("More records exist: read them from the category endpoint."),
  changeCursor: z.string(),
});

export const snapshotSchema = z
  .object({
    subject: z.string(),
    receiptId: z.string(),
    syncStatus: z.enum(["complete", "partial"]).describe("partial when a source's last import failed or has not finished."),
    warnings: z.array(
      z.object({
        code: z
          .enum(["source_unavailable", "reauthorization_required", "source_syncing"])
          .describe(
            "source_unavailable: the source's last import failed for a reason a later sync may get past (the health system was down, slow or answered badly). reauthorization_required: the health system refused the source's tokens; only the patient signing in again through Connect (a new session for the same user) fixes it, and the source is not synced until then. source_syncing: its first import has not finished.",
          ),
        message: z.string(),
        sourceId: z.string(),
      }),
    ),
    consent: z.object({ status: z.literal("active"), categories: z.array(category), expiresAt: isoTime }),
    sources: z.array(
      z.object({
        sourceId: z.string(),
        providerId: z.string(),
        providerName: z.string(),
        status: z.enum(["pending", "syncing", "synced", "partial", "failed"]),
        lastSyncedAt: isoTime.nullable(),
        fidelity: fidelityReportSchema.nullable().describe("The latest completed import's fidelity report (what the health system's data yielded and did not); null before one completes."),
      }),
    ),
    sections: z.partialRecord(category, sectionSchema).describe("One section per category the receipt, the allowlist and `categories` all cover."),
    meta: z.object({ schemaVersion: z.literal(2), generatedAt: isoTime }),
  })
  .meta({ id: "HealthRecord", description: "A consent-filtered normalized snapshot of a subject's records." });

export type Snapshot = z.output<typeof snapshotSchema>;
