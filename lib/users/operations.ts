import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE } from "@/lib/api";
import { cursorParam, limitParam, offsetParam } from "@/lib/http";
import { CATEGORIES } from "@/lib/records";
import { categoryPageSchema, changePageSchema, snapshotSchema, userListSchema } from "./schemas";

const subjectParams = z.object({ subject: pathId("u_", { resource: "subject", description: "The subject (u_).", example: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd" }) });
const categoryParams = subjectParams.extend({
  category: z.string().describe(`One of ${CATEGORIES.join(", ")}.`).meta({ example: "labs" }),
});
const pageQuery = z.object({ limit: limitParam, cursor: cursorParam });
const EXAMPLE_CURSOR = "eyJiIjp7fX0.c2lnbmF0dXJl";

export const listUsersOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/users",
  operationId: "listUsers",
  tag: "Records",
  summary: "Subjects that share records with the application now",
  description: "Subjects with an active share receipt, newest first. Page with cursor; offset is legacy.",
  auth: "key",
  query: z.object({ limit: limitParam, cursor: cursorParam, offset: offsetParam }),
  success: {
    status: 200,
    description: "A page of subjects.",
    schema: userListSchema,
    example: () => ({
      data: [
        {
          id: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd",
          receiptId: "cr_8Jd2Ks5Lq9Wm3Xn6Bv1Zc4Tf",
          categories: ["medications", "allergies", "labs"],
          connectedAt: "2026-11-20T14:03:11.482Z",
          expiresAt: "2027-11-20T14:03:11.482Z",
        },
      ],
      hasMore: false,
      nextCursor: null,
    }),
  },
  errors: ["invalid_pagination", "invalid_cursor"],
});

export const getHealthRecordOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/users/{subject}/records",
  operationId: "getHealthRecord",
  tag: "Records",
  summary: "A subject's consent-filtered snapshot",
  description:
    "One section per category the receipt and the allowlist cover (narrowed by categories; others are omitted). Each " +
    "section holds the category's first 1,000 records and its changeCursor; hasMore sends you to the category endpoint.",
  auth: "key",
  agentOperation: "get_health_record",
  params: subjectParams,
  query: z.object({
    categories: z.string().optional().describe("Comma-separated subset of the categories; omit for every authorized one.").meta({ example: "labs,medications" }),
  }),
  subjectParam: "subject",
  success: {
    status: 200,
    description: "The snapshot.",
    schema: snapshotSchema,
    example: () => ({
      subject: "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd",
      receiptId: "cr_8Jd2Ks5Lq9Wm3Xn6Bv1Zc4Tf",
      syncStatus: "complete",
      warnings: [],
      consent: { status: "active", categories: ["labs"], expiresAt: "2027-11-20T14:03:11.482Z" },
      sources: [
        {
          sourceId: "src_2Hb7Nc4Kx8Pq1Rt5Vw9Yd3Mf",
          providerId: "prv_sandbox_ridgeview",
          providerName: "Ridgeview Health",
          status: "synced",
          lastSyncedAt: "2026-11-20T14:03:40.117Z",
          fidelity: {
            importId: "imp_6Tb2Rk9Lm4Xq7Wn1Cv5Zs8Hd",
            finishedAt: "2026-11-20T14:03:40.117Z",
            records: { demographics: 0, conditions: 0, medications: 0, allergies: 0, immunizations: 0, labs: 12, vitals: 0, procedures: 0, documents: 0, claims: 0 },
            skipped: [{ resourceType: "Encounter", reason: "Encounter is not a record: the records that reference it carry its date, type and location", count: 3 }],
            context: [{ resourceType: "Organization", count: 1 }],
            warnings: [],
          },
        },
      ],
      sections: { labs: { records: [], hasMore: false, changeCursor: EXAMPLE_CURSOR } },
      meta: { schemaVersion: 2, generatedAt: "2026-11-23T09:12:00.000Z" },
    }),
  },
  errors: ["not_found", "invalid_categories"],
});

export const listCategoryRecordsOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/users/{subject}/records/{category}",
  operationId: "listCategoryRecords",
  tag: "Records",
  summary: "One page of a category's records",
  description:
    "Newest clinical time first, then record id. meta.changeCursor starts the category's change feed at this page's " +
    "state: after an initial full read, save the first page's changeCursor and follow the feed from it.",
  auth: "key",
  agentOperation: "get_category_records",
  params: categoryParams,
  query: pageQuery,
  subjectParam: "subject",
  success: {
    status: 200,
    description: "A page of records.",
    schema: categoryPageSchema,
    example: () => ({ data: [], hasMore: false, nextCursor: null, meta: { changeCursor: EXAMPLE_CURSOR, schemaVersion: 2 } }),
  },
  errors: ["not_found", "invalid_categories", "app_scope_exceeded", "invalid_pagination", "invalid_cursor"],
});

export const listRecordChangesOperation = defineOperation({
  profile: PLATFORM_PROFILE,
  method: "GET",
  path: "/users/{subject}/records/{category}/changes",
  operationId: "listRecordChanges",
  tag: "Records",
  summary: "A category's changes after a cursor",
  description:
    "cursor is a changeCursor from a category page, then each nextCursor. Apply changes in sequence order: a delete " +
    "(record null) removes recordId; an upsert with record null was deleted later in the feed. An empty page still " +
    "returns a nextCursor to poll with.",
  auth: "key",
  agentOperation: "get_record_changes",
  params: categoryParams,
  query: pageQuery,
  subjectParam: "subject",
  success: {
    status: 200,
    description: "A page of changes.",
    schema: changePageSchema,
    example: () => ({
      data: [{ sequence: 42, changeType: "delete", recordId: "rec_9Tm4Wq2Lx7Kd1Rb5Nv8Yc3Hf", record: null }],
      hasMore: false,
      nextCursor: EXAMPLE_CURSOR,
    }),
  },
  errors: ["not_found", "invalid_categories", "app_scope_exceeded", "invalid_pagination", "invalid_cursor"],
});
