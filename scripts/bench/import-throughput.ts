// Import throughput: `tsx scripts/bench/import-throughput.ts <resources>` (default 10,000). On an ephemeral embedded
// PostgreSQL, one continuous-sync subject's source holding the sandbox's long-history patient (`resources` FHIR
// resources) is imported whole through `runSourceImport` (normalize, merge, write records, changes and counters,
// emit the event), then imported again (the idempotent re-run). Beside it, in the same run, the floor: the same
// record and change rows written for another subject by a bare `INSERT ... SELECT FROM unnest(...)` with no logic.
// Prints one JSON line: seconds, resources/s, records/s, the floor's records/s, and memory.
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FhirResource } from "fhir/r4";
import pg from "pg";
import { loadAverage } from "./machine";

const resourceCount = Number(process.argv[2] ?? "10000");
process.env.CHARTKEY_SECRET ??= `bench-only-${randomBytes(24).toString("hex")}`;
process.env.LOG_LEVEL ??= "warn";
const { closeDb, db, migrate, startEmbeddedPostgres } = await import("@/lib/db");
const { createApplication } = await import("@/lib/applications");
const { encryptSecret } = await import("@/lib/auth");
const { grantReceipt } = await import("@/lib/consent");
const { newId } = await import("@/lib/ids");
const { runSourceImport } = await import("@/lib/imports");
const { CATEGORIES } = await import("@/lib/records");
const { longHistoryBundle } = await import("@/lib/sandbox/long-history");

const embedded = await startEmbeddedPostgres({ dataDir: path.join(tmpdir(), `ck-bench-imports-${process.pid}`), ephemeral: true });
const admin = new pg.Client({ connectionString: embedded.serverUrl });
await admin.connect();
await admin.query("CREATE DATABASE chartkey_bench");
await admin.end();
const url = embedded.databaseUrl("chartkey_bench");
process.env.DATABASE_URL = url;
await migrate(url);

const developer = await db().developer.create({ data: { id: newId("dev_"), email: "bench@example.test", name: "Bench", passwordHash: "unused" } });
const application = await createApplication({ developerId: developer.id, name: "Bench" });
await db().application.update({ where: { id: application.id }, data: { syncMode: "continuous" } });
const providerId = newId("prov_");
await db().provider.create({
  data: {
    id: providerId,
    environment: "sandbox",
    name: "Riverbend Health",
    fhirBaseUrl: "http://localhost/ehr/bench/fhir",
    authorizeUrl: "http://localhost/ehr/bench/authorize",
    tokenUrl: "http://localhost/ehr/bench/token",
    clientId: "bench",
    clientSecretEncrypted: encryptSecret("bench"),
  },
});
async function subjectWithSource() {
  const patientId = newId("pat_");
  const subjectId = newId("u_");
  const sourceId = newId("src_");
  await db().patient.create({ data: { id: patientId, environment: "sandbox" } });
  await db().subject.create({ data: { id: subjectId, applicationId: application.id, environment: "sandbox", patientId } });
  await db().source.create({ data: { id: sourceId, patientId, subjectId, providerId, connected: true, syncStatus: "synced" } });
  await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId, categories: CATEGORIES });
  return { subjectId, sourceId };
}

// The health system's side: the Bundle held as JSON text, as a server holds it; each fetch parses a fresh copy.
const held = JSON.stringify(longHistoryBundle(resourceCount).entry!.map((entry) => entry.resource));
const fetchResources = async () => JSON.parse(held) as FhirResource[];

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const rssBefore = process.memoryUsage().rss;

const { subjectId, sourceId } = await subjectWithSource();
const load = loadAverage();
const started = performance.now();
const first = await runSourceImport(sourceId, fetchResources);
const seconds = (performance.now() - started) / 1000;
const rerunStarted = performance.now();
const rerun = await runSourceImport(sourceId, fetchResources);
const rerunSeconds = (performance.now() - rerunStarted) / 1000;
clearInterval(sampler);
const records = await db().record.count({ where: { subjectId } });
if (rerun.outcome.upserts + rerun.outcome.deletes !== 0) throw new Error("the re-run changed records");

// The floor: the same rows, read back, written for another subject with one bare statement per table.
const floorSubject = (await subjectWithSource()).subjectId;
const client = new pg.Client({ connectionString: url });
await client.connect();
const rows = await client.query(`SELECT "id", "category", "factKey", "data"::text AS "data", "contentHash", "sources"::text AS "sources", "sortAt" FROM "Record" WHERE "subjectId" = $1`, [subjectId]);
const column = (name: string) => rows.rows.map((row) => (row[name] instanceof Date ? (row[name] as Date).toISOString() : row[name]));
const floorStarted = performance.now();
await client.query("BEGIN");
await client.query(
  `INSERT INTO "Record" ("id", "subjectId", "category", "factKey", "data", "contentHash", "sources", "sortAt", "updatedAt")
   SELECT 'f' || r.id, $1, r.category, r."factKey", r.data, r."contentHash", r.sources, r."sortAt", now()
   FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::jsonb[], $8::timestamp[]) AS r(id, category, "factKey", data, "contentHash", sources, "sortAt")`,
  [floorSubject, column("id"), column("category"), column("factKey"), column("data"), column("contentHash"), column("sources"), column("sortAt")],
);
await client.query(
  `INSERT INTO "RecordChange" ("subjectId", "category", "sequence", "recordId", "changeType")
   SELECT $1, c.category, row_number() OVER (PARTITION BY c.category ORDER BY c.id), 'f' || c.id, 'upsert' FROM unnest($2::text[], $3::text[]) AS c(id, category)`,
  [floorSubject, column("id"), column("category")],
);
await client.query("COMMIT");
const floorSeconds = (performance.now() - floorStarted) / 1000;
await client.end();

console.log(
  JSON.stringify({
    resources: resourceCount,
    records,
    seconds,
    resourcesPerSecond: resourceCount / seconds,
    recordsPerSecond: records / seconds,
    rerunSeconds,
    floorSeconds,
    floorRecordsPerSecond: records / floorSeconds,
    ratio: records / seconds / (records / floorSeconds),
    peakRssMiB: peakRss / 2 ** 20,
    rssBeforeMiB: rssBefore / 2 ** 20,
    load,
    upserts: first.outcome.upserts,
  }),
);

await closeDb();
await embedded.stop();
process.exit(0);
