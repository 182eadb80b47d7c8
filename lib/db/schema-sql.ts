import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * SQL that turns one Prisma datamodel into another (`from: null` means an empty database), computed by Prisma's
 * JS schema engine. It reaches a database through the pg adapter even for a pure diff, so `databaseUrl` must point
 * at a running server.
 */
export async function prismaDiffSql(options: { from: string | null; to: string; databaseUrl: string }): Promise<string> {
  const prisma = path.resolve(process.cwd(), "node_modules/.bin/prisma");
  const from = options.from ? ["--from-schema-datamodel", options.from] : ["--from-empty"];
  const { stdout } = await run(prisma, ["migrate", "diff", ...from, "--to-schema-datamodel", options.to, "--script"], {
    env: { ...process.env, DATABASE_URL: options.databaseUrl },
    maxBuffer: 16 * 1024 * 1024,
  });
  const sql = stdout.trim();
  return sql.startsWith("-- This is an empty migration") ? "" : sql;
}
