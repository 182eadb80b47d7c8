import { randomBytes } from "node:crypto";
import { createApiKey, requireSandbox, type KeyAuth } from "@/lib/auth";
import { db, withTransaction } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { findScenario } from "@/lib/sandbox";
import { queueRunDriver } from "./drive-run";
import { REPORT_RETENTION_DAYS, RUN_EXPIRY_MINUTES } from "./limits";
import { presentRun } from "./present-run";
import type { CreateRunBody } from "./schemas";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * POST /conformance/runs. The run and its key are written together (status `creating`, under the application's
 * row lock, so two creations cannot both find no open run), then the run's job is queued; if the queue cannot take
 * it, both are deleted and the answer is 503 `conformance_unavailable` with nothing changed. A cancel that came in
 * meanwhile wins: the key it revoked is never shown and the answer is 409 `run_not_open`.
 */
export async function startConformanceRun(key: KeyAuth, body: CreateRunBody, origin: string, now = new Date()) {
  requireSandbox(key);
  if (key.application.status !== "sandbox") throw new ApiError("app_not_sandbox", "Conformance runs are for applications in the sandbox; this one is live.");
  const scenario = findScenario(body.scenario);
  if (!scenario || scenario.kind !== "record") {
    throw new ApiError("invalid_scenario", `${body.scenario} is not a record scenario; use one with a synthetic patient, such as baseline-adult.`);
  }
  const continuous = body.sync_mode === "continuous";
  if (continuous && key.application.syncMode !== "continuous") {
    throw new ApiError("invalid_request", "A continuous run needs an application whose sync mode is continuous; this one is one-time.");
  }

  const runId = newId("run_");
  const runKey = await withTransaction("ReadCommitted", async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Application" WHERE id = ${key.application.id} FOR UPDATE`;
    const open = await tx.conformanceRun.findFirst({ where: { applicationId: key.application.id, status: { in: ["creating", "open"] } }, select: { id: true } });
    if (open) throw new ApiError("run_in_progress", `Run ${open.id} is still open; cancel it or let it end first.`);
    await tx.conformanceRun.create({
      data: {
        id: runId,
        applicationId: key.application.id,
        scenario: scenario.id,
        syncMode: continuous ? "continuous" : "one_time",
        phaseStartedAt: now,
        timeline: [{ name: "session", startedAt: now.toISOString(), endedAt: null, endedBy: null }],
        reportToken: randomBytes(32).toString("base64url"),
        reportExpiresAt: new Date(now.getTime() + REPORT_RETENTION_DAYS * DAY_MS),
        expiresAt: new Date(now.getTime() + RUN_EXPIRY_MINUTES * 60_000),
        createdAt: now,
      },
    });
    return createApiKey({ applicationId: key.application.id, environment: "sandbox", name: `Conformance run ${runId}`, conformanceRunId: runId }, tx);
  });

  // A fresh run has no job yet, so no job queued means the queue cannot take one (or is unreachable).
  const queued = await queueRunDriver(runId).catch((error: unknown) => {
    log.warn({ runId, err: (error as Error).message }, "could not queue a conformance run");
    return null;
  });
  if (!queued) {
    await withTransaction("ReadCommitted", async (tx) => {
      await tx.apiKey.deleteMany({ where: { conformanceRunId: runId } });
      await tx.conformanceRun.deleteMany({ where: { id: runId } });
    });
    throw new ApiError("conformance_unavailable", "Conformance runs are unavailable right now (the job queue cannot take the run); nothing was created. Retry later.");
  }

  const opened = await db().conformanceRun.updateMany({ where: { id: runId, status: "creating" }, data: { status: "open" } });
  if (opened.count === 0) throw new ApiError("run_not_open", `Run ${runId} was cancelled or expired before its creation finished; its key was revoked.`);
  const run = await db().conformanceRun.findUniqueOrThrow({ where: { id: runId } });
  return { ...presentRun(run, origin), run_key: runKey.key };
}
