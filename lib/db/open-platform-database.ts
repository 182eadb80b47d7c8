import path from "node:path";
import { migrate } from "./migrate";
import { resolveDatabase, type ResolvedDatabase } from "./resolve-database";

/** Where `npm start` and its companion scripts keep local state: CHARTKEY_DATA_DIR, else `.data`. */
export function platformDataDir(): string {
  return path.resolve(process.env.CHARTKEY_DATA_DIR ?? ".data");
}

/**
 * What every launcher does first: find or start the database, point this process at it (DATABASE_URL, read by
 * the Prisma client) and apply pending migrations.
 */
export async function openPlatformDatabase(): Promise<ResolvedDatabase & { applied: string[] }> {
  const database = await resolveDatabase({ dataDir: path.join(platformDataDir(), "postgres") });
  process.env.DATABASE_URL = database.url;
  const applied = await migrate(database.url);
  return { ...database, applied };
}
