import type { OperationOutcome } from "fhir/r4";
import pg from "pg";
import type { KeyAuth } from "@/lib/auth";
import { pgPool, withPgTransaction } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { sendJob } from "@/lib/queue";
import { CONSENTED_GROUP_ID, FHIR_NDJSON, parseExportRequest } from "./export-request";
import { deleteExportFiles, type ExportFileEntry } from "./ndjson-files";
import { FHIR_EXPORT_QUEUE } from "./run-export";

/** Seconds a client is asked to wait between status requests, and before kicking off again after a 429. */
export const POLL_SECONDS = 1;
const BUSY_RETRY_SECONDS = 30;

/** The Bulk Data IG's completion manifest. */
export type ExportManifest = {
  transactionTime: string;
  request: string;
  requiresAccessToken: true;
  output: { type: string; url: string; count: number }[];
  error: { type: string; url: string }[];
};

type ExportRow = {
  id: string;
  status: "accepted" | "running" | "completed" | "failed" | "cancelled" | "expired";
  requestUrl: string;
  transactionTime: Date;
  subjectsTotal: number;
  subjectsDone: number;
  resourcesWritten: number;
  manifest: ExportFileEntry[] | null;
  error: string | null;
};

/** What a status request answers: still running (202, with progress), or the manifest (200). */
export type ExportStatus = { done: false; progress: string } | { done: true; manifest: ExportManifest };

const notFound = (exportId: string) => new ApiError("not_found", `No export ${exportId} of this application is available (never started, cancelled or expired).`);

/** What a kick-off is given: the key, the request's query, its Prefer header and URL (the manifest's `request`). */
export type KickOff = { key: KeyAuth; params: URLSearchParams; prefer: string | null; requestUrl: string };

/** `/$export`: kicks off an export of the key's application's consented subjects in the key's environment. */
export function exportFhir(input: KickOff): Promise<string> {
  return kickOff({ ...input, groupId: null });
}

/** `Group/{groupId}/$export`: the same export, for the only Group served (`consented`); any other Group id is 404. */
export function exportFhirGroup(input: KickOff & { groupId: string }): Promise<string> {
  return kickOff(input);
}

/**
 * Kicks off an export of the key's application's consented subjects in the key's environment (`groupId` null:
 * `/$export`; else `Group/{groupId}/$export`, whose only Group is `consented`). At most one export is accepted or
 * running per application and environment: another kick-off meanwhile is 429 `rate_limited` with Retry-After. Returns
 * the new export's id; the fhir-export job runs it.
 */
async function kickOff(input: KickOff & { groupId: string | null }): Promise<string> {
  const { key } = input;
  if (input.groupId !== null && input.groupId !== CONSENTED_GROUP_ID) throw new ApiError("not_found", `No Group ${input.groupId}; the Group served is ${CONSENTED_GROUP_ID}.`);
  const request = parseExportRequest(input.params, input.prefer);
  const exportId = newId("fhx_");
  await withPgTransaction(async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('fhir-export:' || $1 || ':' || $2))`, [key.application.id, key.environment]);
    const { rows } = await client.query<{ id: string }>(
      `SELECT "id" FROM "FhirExport" WHERE "applicationId" = $1 AND "environment" = $2::"Environment" AND "status" IN ('accepted', 'running') LIMIT 1`,
      [key.application.id, key.environment],
    );
    if (rows[0]) {
      throw new ApiError("rate_limited", `Export ${rows[0].id} of this application is still running in ${key.environment}: wait for it, or cancel it, before starting another.`, {
        headers: { "Retry-After": String(BUSY_RETRY_SECONDS) },
      });
    }
    await client.query(
      `INSERT INTO "FhirExport" ("id", "applicationId", "environment", "requesterKeyId", "groupId", "types", "since", "requestUrl", "transactionTime", "requestedAt")
       VALUES ($1, $2, $3::"Environment", $4, $5, $6::text[], $7::timestamptz AT TIME ZONE 'UTC', $8, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`,
      [exportId, key.application.id, key.environment, key.apiKeyId, input.groupId, request.types, request.since?.toISOString() ?? null, input.requestUrl],
    );
  });
  await sendJob(FHIR_EXPORT_QUEUE, { exportId }, { singletonKey: exportId });
  return exportId;
}

async function ownExport(key: KeyAuth, exportId: string): Promise<ExportRow> {
  const { rows } = await pgPool().query<ExportRow>(
    `SELECT "id", "status"::text AS "status", "requestUrl", "transactionTime" AT TIME ZONE 'UTC' AS "transactionTime", "subjectsTotal", "subjectsDone",
            "resourcesWritten", "manifest", "error"
     FROM "FhirExport" WHERE "id" = $1 AND "applicationId" = $2 AND "environment" = $3::"Environment"`,
    [exportId, key.application.id, key.environment],
  );
  const row = rows[0];
  if (!row || row.status === "cancelled" || row.status === "expired") throw notFound(exportId);
  return row;
}

/**
 * An export's status for any key of its application and environment (another application's, or the other
 * environment's, is 404): in progress with `X-Progress`, failed (500 with its error), or the manifest whose file URLs
 * are under `base` and are downloaded with the same key.
 */
export async function getFhirExportStatus(key: KeyAuth, exportId: string, base: string): Promise<ExportStatus> {
  const row = await ownExport(key, exportId);
  if (row.status === "accepted") return { done: false, progress: "queued" };
  if (row.status === "running") return { done: false, progress: `${row.subjectsDone} of ${row.subjectsTotal} subjects, ${row.resourcesWritten} resources` };
  if (row.status === "failed") throw new ApiError("internal_error", `The export failed: ${row.error ?? "unknown error"}. Start a new one.`);
  return {
    done: true,
    manifest: {
      transactionTime: new Date(row.transactionTime).toISOString(),
      request: row.requestUrl,
      requiresAccessToken: true,
      output: (row.manifest ?? []).map((file) => ({ type: file.type, url: `${base}/$export-file/${file.fileId}`, count: file.count })),
      error: [],
    },
  };
}

/** Cancels an export in progress, or deletes a completed one's files before they expire; its status is 404 after. */
export async function cancelFhirExport(key: KeyAuth, exportId: string): Promise<OperationOutcome> {
  await ownExport(key, exportId);
  await withPgTransaction(async (client) => {
    await client.query(`UPDATE "FhirExport" SET "status" = 'cancelled', "completedAt" = coalesce("completedAt", now() AT TIME ZONE 'UTC') WHERE "id" = $1`, [exportId]);
    await deleteExportFiles(exportId, client);
  });
  return { resourceType: "OperationOutcome", issue: [{ severity: "information", code: "informational", diagnostics: `Export ${exportId} cancelled; its files are deleted.` }] };
}

/** Type parsers for a binary result whose bytea columns stay Buffers (pg's own binary bytea parser makes a string). */
const BINARY_BYTEA: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => (oid === pg.types.builtins.BYTEA ? (value: Buffer) => value : pg.types.getTypeParser(oid, format))) as pg.CustomTypesConfig["getTypeParser"],
};

/** Stored chunks one query reads (2 MiB of a file's bytes, CHUNK_BYTES each): the next batch is read while this one is sent. */
const CHUNKS_PER_READ = 2;

/**
 * One file of a completed export of the key's application and environment, streamed from its stored chunks as the
 * client takes them (404 for another application's file, or one cancelled or expired): CHUNKS_PER_READ chunks a
 * query, the next batch read while the last one is written, so at most two batches are held whatever the file's size
 * and a slow client slows the reads (the platform server writes the body with backpressure, lib/server/direct-api.ts).
 */
export async function getFhirExportFile(key: KeyAuth, fileId: string): Promise<Response> {
  const { rows } = await pgPool().query<{ bytes: number }>(
    `SELECT f."bytes" FROM "FhirExportFile" f JOIN "FhirExport" e ON e."id" = f."exportId"
     WHERE f."id" = $1 AND e."applicationId" = $2 AND e."environment" = $3::"Environment" AND e."status" = 'completed'`,
    [fileId, key.application.id, key.environment],
  );
  if (!rows[0]) throw new ApiError("not_found", `No export file ${fileId} of this application is available (never written, cancelled or expired).`);
  // In binary (pg's `binary` option, which its types leave out): PostgreSQL's text form of bytea is hex, twice the
  // bytes to send and to decode. pg hands a binary bytea to its parser as the Buffer it is (BINARY_BYTEA).
  const read = async (after: number): Promise<{ data: Buffer; sequence: number }[]> => {
    const chunks = {
      text: `SELECT "data", "sequence" FROM "FhirExportChunk" WHERE "fileId" = $1 AND "sequence" > $2 ORDER BY "sequence" LIMIT ${CHUNKS_PER_READ}`,
      values: [fileId, after],
      binary: true,
      types: BINARY_BYTEA,
    };
    return (await pgPool().query<{ data: Buffer; sequence: number }>(chunks)).rows;
  };
  // A read nobody waits for any more (the client went away) must not become an unhandled rejection.
  const readAhead = (after: number) => {
    const batch = read(after);
    batch.catch(() => {});
    return batch;
  };
  let next: Promise<{ data: Buffer; sequence: number }[]> | null = readAhead(0);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const batch = next ? await next : [];
        next = batch.length === CHUNKS_PER_READ ? readAhead(batch[batch.length - 1]!.sequence) : null;
        if (batch.length === 0) return controller.close();
        for (const row of batch) controller.enqueue(new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength));
        if (!next) controller.close();
      },
      cancel() {
        next = null;
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: { "Content-Type": FHIR_NDJSON, "Content-Length": String(rows[0].bytes), "Cache-Control": "no-store" } });
}
