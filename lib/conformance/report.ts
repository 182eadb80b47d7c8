import { db } from "@/lib/db";
import { ApiError, unstorableCharacter } from "@/lib/http";
import { log } from "@/lib/log";
import { presentReport } from "./present-run";
import type { ReportResource } from "./schemas";

/**
 * The public report behind a token, or null when there is none (never issued, or deleted after 90 days). A token is
 * 32 random bytes, so it is looked up as given and never listed; one holding text PostgreSQL cannot store (a `%00`
 * in the page's path) names no report, and is not sent to the database, which would refuse it.
 */
export async function findReport(token: string, now = new Date()): Promise<ReportResource | null> {
  if (unstorableCharacter(token)) return null;
  const run = await db().conformanceRun.findUnique({ where: { reportToken: token }, include: { application: { select: { name: true } } } });
  if (!run || (run.reportExpiresAt && run.reportExpiresAt <= now)) return null;
  return presentReport(run, run.application.name, now);
}

/**
 * GET /conformance/reports/{token}: the report, 404 `not_found` for an unknown token, and 503
 * `conformance_unavailable` when the reports cannot be read now (the database is unreachable).
 */
export async function getConformanceReport(token: string): Promise<ReportResource> {
  let report: ReportResource | null;
  try {
    report = await findReport(token);
  } catch (error) {
    log.warn({ err: (error as Error).message }, "conformance report could not be read");
    throw new ApiError("conformance_unavailable", "Conformance reports are unavailable right now; retry later.");
  }
  if (!report) throw new ApiError("not_found", "No conformance report at this address; reports are kept 90 days.");
  return report;
}
