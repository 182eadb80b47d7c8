import { readSandboxRecords } from "@/lib/simulation";

/** Rows a records table of the dashboard shows at once; "Load more" reads the next page. */
export const SUBJECT_RECORDS_PAGE = 10;

/**
 * One page of a sandbox subject's records in one category for the dashboard's table (newest clinical time first),
 * whatever its receipt says (lib/simulation `readSandboxRecords`); null when the subject is not this application's
 * sandbox subject or the category is unknown.
 */
export async function readSubjectRecords(applicationId: string, subjectId: string, category: string, cursor?: string) {
  try {
    return await readSandboxRecords({ applicationId, subjectId, category, limit: SUBJECT_RECORDS_PAGE, ...(cursor ? { cursor } : {}) });
  } catch (error) {
    // An unknown category or a cursor that is not this subject's and category's: nothing to show.
    if ((error as Error).name === "ZodError" || (error as { code?: string }).code === "invalid_cursor") return null;
    throw error;
  }
}
