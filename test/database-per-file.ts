import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, inject, vi } from "vitest";
import { closeDb } from "../lib/db";
import { TEMPLATE_DATABASE, withDatabase } from "./global-setup";
import { startFromWorkerState } from "./worker-state";

// Runs before each integration test file: a private database cloned from the migrated template, so files run in
// parallel without sharing state. DATABASE_URL is set before the file imports anything that opens the database.
// Files share their worker's modules (vitest.config.ts), so each first gets back the environment and process state
// its worker started with (test/worker-state.ts).
startFromWorkerState();
const serverUrl = inject("databaseServerUrl");
const database = `ck_test_${randomBytes(6).toString("hex")}`;

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${database} TEMPLATE ${TEMPLATE_DATABASE}`);
await admin.end();

process.env.DATABASE_URL = withDatabase(serverUrl, database);
process.env.CHARTKEY_TEST_DATABASE = database;

afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  // Imported here rather than above: pg-boss loads pg, which the tracing tests' instrumentation must load first.
  const { stopSender } = await import("../lib/queue/send-job");
  await stopSender().catch(() => {});
  await closeDb();
  const cleanup = new pg.Client({ connectionString: serverUrl });
  await cleanup.connect();
  await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await cleanup.end();
});
