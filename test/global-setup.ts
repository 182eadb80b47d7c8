import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate, startEmbeddedPostgres, type EmbeddedDatabase } from "../lib/db";

export const TEMPLATE_DATABASE = "chartkey_test_template";

declare module "vitest" {
  export interface ProvidedContext {
    databaseServerUrl: string;
  }
}

/**
 * One PostgreSQL server per test run: the embedded one by default, or the server named by TEST_DATABASE_SERVER_URL
 * (a maintenance-database URL, e.g. the machine's PostgreSQL 15) to prove the production path. A migrated template
 * database is built once; each test file clones it (test/database-per-file.ts).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  const dataDir = path.join(tmpdir(), `ck-test-pg-${process.pid}`);
  let serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  if (!serverUrl) {
    embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    serverUrl = embedded.serverUrl;
  }

  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  await migrate(withDatabase(serverUrl, TEMPLATE_DATABASE));

  project.provide("databaseServerUrl", serverUrl);

  return async () => {
    if (embedded) {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
