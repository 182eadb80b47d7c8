// `npm run dev:key`: a fresh sandbox key for the development application, as a line scripts can parse.
import path from "node:path";
import { loadLocalEnv } from "@/lib/config/local-env";

await loadLocalEnv();
const { newDevelopmentSandboxKey } = await import("@/lib/applications/development-seed");
const { closeDb } = await import("@/lib/db/client");
const { migrate } = await import("@/lib/db/migrate");
const { resolveDatabase } = await import("@/lib/db/resolve-database");

const dataDir = path.resolve(process.env.CHARTKEY_DATA_DIR ?? ".data");
const database = await resolveDatabase({ dataDir: path.join(dataDir, "postgres") });
process.env.DATABASE_URL = database.url;
try {
  await migrate(database.url);
  console.log(`CK_SANDBOX_KEY=${await newDevelopmentSandboxKey()}`);
} finally {
  await closeDb();
  await database.stop();
}
