import { readFileSync } from "node:fs";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { patientFhirId, recordFhirId } from "@/lib/fhir";
import { shuffled } from "./endpoints";

/**
 * The FHIR section (issue 52, point 5): a FHIR search page against the JSON category page it is the FHIR view of, a
 * whole Bulk Data export against a bare COPY of the same rows, and the export worker's peak RSS at two sizes. The
 * pure parts are here (paths, the floor's statement, /proc figures, the IG client's steps); index.ts runs them.
 */

/** The JSON category page the FHIR search is compared with (endpoints.ts's category page). */
export const JSON_LABS_PAGE = "GET /users/{subject}/records/labs?limit=50";
/** Its FHIR view: the subject's laboratory Observations, 50 to a page. */
export const FHIR_LABS_PAGE = "GET /fhir/Observation?patient={subject}&category=laboratory&_count=50";

/** The FHIR search page of each subject, in the category page's shuffled order (endpoints.ts), so both read the same subjects in turn. */
export function fhirSearchPaths(subjects: readonly string[]): string[] {
  return shuffled(subjects).map((subject) => `/api/v1/fhir/Observation?patient=${patientFhirId(subject)}&category=laboratory&_count=50`);
}

/** The JSON category page of each subject, in the same order as fhirSearchPaths. */
export function jsonCategoryPaths(subjects: readonly string[]): string[] {
  return shuffled(subjects).map((subject) => `/api/v1/users/${subject}/records/labs?limit=50`);
}

/** The served ids of a JSON page's records and of a FHIR searchset's resources, to check that the two pages hold the same records in the same order. */
export function samePageRecords(json: { data: { recordId: string }[] }, bundle: { entry?: { resource?: { id?: string } }[] }): boolean {
  const fromJson = json.data.map((record) => recordFhirId(record.recordId));
  const fromFhir = (bundle.entry ?? []).map((entry) => entry.resource?.id ?? "");
  return fromJson.length > 0 && fromJson.length === fromFhir.length && fromJson.every((id, index) => id === fromFhir[index]);
}

/**
 * The export's floor: every row an export of the application writes (the stored resource of each live record of its
 * subjects with an active receipt, a subject's first demographics record only, as its Patient, and their context
 * resources), read by one COPY ... TO STDOUT as PostgreSQL stores
 * it: no consent per subject, no meta, no files, no HTTP.
 */
export function exportFloorStatement(applicationId: string): string {
  const id = applicationId.replace(/'/g, "''");
  const consented = `SELECT s."id" FROM "Subject" s WHERE s."applicationId" = '${id}' AND s."environment" = 'sandbox'
      AND EXISTS (SELECT 1 FROM "ConsentReceipt" c WHERE c."subjectId" = s."id" AND c."status" = 'active' AND c."expiresAt" > (now() AT TIME ZONE 'UTC'))`;
  return `COPY (
    SELECT r."resource"::text FROM "Record" r WHERE r."subjectId" IN (${consented}) AND r."deletedAt" IS NULL AND r."resource" IS NOT NULL
      AND (r."category" <> 'demographics' OR r."id" = (
        SELECT min(d."id") FROM "Record" d WHERE d."subjectId" = r."subjectId" AND d."category" = 'demographics' AND d."deletedAt" IS NULL AND d."resource" IS NOT NULL))
    UNION ALL
    SELECT c."resource"::text FROM "FhirContext" c WHERE c."subjectId" IN (${consented})
  ) TO STDOUT`;
}

/** Rows and bytes of one COPY ... TO STDOUT, and its seconds. */
export type CopyRun = { rows: number; bytes: number; seconds: number };

/** Runs the floor's COPY on `url` and counts what comes back (rows are lines: COPY's text format escapes newlines). */
export async function copyFloor(url: string, statement: string): Promise<CopyRun> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const stream = client.query(copyTo(statement));
    let bytes = 0;
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows += 1;
    }
    return { rows, bytes, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** A process's resident set now and at its peak, in MiB, from /proc/<pid>/status (VmRSS, VmHWM). */
export function parseProcStatus(text: string): { rssMiB: number; peakMiB: number } {
  const kib = (field: string) => {
    const match = text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    if (!match) throw new Error(`no ${field} in /proc status`);
    return Number(match[1]) / 1024;
  };
  return { rssMiB: kib("VmRSS"), peakMiB: kib("VmHWM") };
}

export function processMemory(pid: number): { rssMiB: number; peakMiB: number } {
  return parseProcStatus(readFileSync(`/proc/${pid}/status`, "utf8"));
}

/** One whole export as a Bulk Data client runs it, timed from the kick-off to the last byte of the last file. */
export type ExportClientRun = { seconds: number; kickOffToManifest: number; files: number; resources: number; bytes: number; polls: number };

/**
 * A Bulk Data client written from the IG alone: kick-off with `Prefer: respond-async` (202 and Content-Location),
 * status polled as Retry-After says (202 while running, 200 with the manifest), then every output file downloaded
 * with the same key, one after another, its lines counted.
 */
export async function runExportClient(base: string, apiKey: string, sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms))): Promise<ExportClientRun> {
  const authorization = { Authorization: `Bearer ${apiKey}` };
  const started = performance.now();
  const kickOff = await fetch(`${base}/api/v1/fhir/$export`, { headers: { ...authorization, Accept: "application/fhir+json", Prefer: "respond-async" } });
  const location = kickOff.headers.get("content-location");
  if (kickOff.status !== 202 || !location) throw new Error(`export kick-off answered ${kickOff.status}: ${(await kickOff.text()).slice(0, 300)}`);
  await kickOff.arrayBuffer();
  let polls = 0;
  let manifest: { output: { type: string; url: string; count: number }[] } | undefined;
  for (;;) {
    const status = await fetch(location, { headers: { ...authorization, Accept: "application/json" } });
    polls += 1;
    if (status.status === 200) {
      manifest = (await status.json()) as typeof manifest;
      break;
    }
    if (status.status !== 202) throw new Error(`export status answered ${status.status}: ${(await status.text()).slice(0, 300)}`);
    await status.arrayBuffer();
    await sleep(retryAfterMs(status.headers.get("retry-after")));
  }
  const kickOffToManifest = (performance.now() - started) / 1000;
  let bytes = 0;
  let resources = 0;
  for (const file of manifest!.output) {
    const response = await fetch(file.url, { headers: { ...authorization, Accept: "application/fhir+ndjson" } });
    if (response.status !== 200 || !response.body) throw new Error(`export file ${file.url} answered ${response.status}`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) resources += 1;
    }
  }
  return { seconds: (performance.now() - started) / 1000, kickOffToManifest, files: manifest!.output.length, resources, bytes, polls };
}

/** Retry-After's seconds as milliseconds (1 s when absent or not a number of seconds, the IG's suggested interval). */
export function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return header !== null && header.trim() !== "" && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
}
