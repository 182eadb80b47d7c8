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
  // Both integration projects (vitest.config.ts) name this setup: they share the one server and template.
  const holder = globalThis as typeof globalThis & { [SHARED]?: { users: number; server: Promise<RunServer> } };
  const shared = (holder[SHARED] ??= { users: 0, server: startRunServer() });
  shared.users += 1;
  const { serverUrl, stop } = await shared.server;
  project.provide("databaseServerUrl", serverUrl);

  return async () => {
    shared.users -= 1;
    if (shared.users === 0) {
      delete holder[SHARED];
      await stop();
    }
  };
}

const SHARED = Symbol.for("chartkey.test.database-server");
type RunServer = { serverUrl: string; stop: () => Promise<void> };

async function startRunServer(): Promise<RunServer> {
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

  return {
    serverUrl,
    stop: async () => {
      if (embedded) {
        await embedded.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
