import { ApiError } from "@/lib/http";
import type { NormalizedRecord } from "@/lib/records";
import { readCategoryRecords } from "@/lib/users";
import { dashboardSandboxAuth, type DashboardApplication } from "./sandbox-access";

/** Rows a records page of the dashboard shows at once; "Load more" reads the next page. */
export const SUBJECT_RECORDS_PAGE = 10;

export type SubjectRecordsPage =
  | { readable: true; records: NormalizedRecord[]; nextCursor: string | null }
  | { readable: false; code: string; message: string };

/**
 * One page of a subject's records in one category, read exactly as GET /users/{subject}/records/{category} reads it
 * with a sandbox key (consent and allowlist enforced, newest clinical time first). When the API would refuse the read
 * (consent revoked or expired: `not_found`; a category outside the receipt or allowlist: `app_scope_exceeded`), the
 * refusal is returned so the page can say why, not thrown.
 */
export async function readSubjectRecords(application: DashboardApplication, subjectId: string, category: string, cursor?: string): Promise<SubjectRecordsPage> {
  try {
    const page = await readCategoryRecords(dashboardSandboxAuth(application), subjectId, category, { limit: SUBJECT_RECORDS_PAGE, ...(cursor ? { cursor } : {}) });
    return { readable: true, records: page.data, nextCursor: page.nextCursor };
  } catch (error) {
    if (error instanceof ApiError) return { readable: false, code: error.code, message: error.message };
    throw error;
  }
}
