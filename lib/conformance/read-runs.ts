import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError, decodeCursor, encodeCursor, type CursorBinding, type ListEnvelope } from "@/lib/http";
import { presentRun } from "./present-run";
import type { RunRow } from "./run-row";
import type { RunResource } from "./schemas";

/** The application's run, or 404 `not_found` (another application's runs do not exist for this key). */
export async function findRun(key: KeyAuth, runId: string): Promise<RunRow> {
  const run = await db().conformanceRun.findFirst({ where: { id: runId, applicationId: key.application.id } });
  if (!run) throw new ApiError("not_found", `No conformance run ${runId} for this application.`);
  return run;
}

/** GET /conformance/runs/{runId}: the live phase, checks so far, the verdict once ended; never the run key. */
export async function getConformanceRun(key: KeyAuth, runId: string, origin: string): Promise<RunResource> {
  requireSandbox(key);
  return presentRun(await findRun(key, runId), origin);
}

type RunPosition = { c: string; i: string };

/** GET /conformance/runs: the application's runs, newest first, a page at a time. */
export async function listConformanceRuns(key: KeyAuth, page: { limit: number; cursor?: string | undefined }, origin: string): Promise<ListEnvelope<RunResource>> {
  requireSandbox(key);
  return listApplicationRuns(key.application.id, page, origin);
}

/** The application's runs, newest first (the API's list and the dashboard's history). */
export async function listApplicationRuns(applicationId: string, page: { limit: number; cursor?: string | undefined }, origin: string): Promise<ListEnvelope<RunResource>> {
  const binding: CursorBinding = { endpoint: "conformance-runs", applicationId, environment: "sandbox" };
  const after = page.cursor ? decodeCursor<RunPosition>(page.cursor, binding) : null;
  const afterAt = after ? new Date(after.c) : null;
  const rows = await db().conformanceRun.findMany({
    where: { applicationId, ...(after && afterAt ? { OR: [{ createdAt: { lt: afterAt } }, { createdAt: afterAt, id: { lt: after.i } }] } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  const hasMore = rows.length > page.limit;
  return {
    data: shown.map((run) => presentRun(run, origin)),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(binding, { c: last.createdAt.toISOString(), i: last.id } satisfies RunPosition) : null,
  };
}
