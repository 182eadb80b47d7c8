// `npm run dev:key`: a fresh sandbox key for the development application, as a line scripts can parse.
import { loadLocalEnv } from "@/lib/config/local-env";

await loadLocalEnv();
const { newDevelopmentSandboxKey } = await import("@/lib/applications/development-seed");
const { closeDb } = await import("@/lib/db/client");
const { openPlatformDatabase } = await import("@/lib/db/open-platform-database");

const database = await openPlatformDatabase();
try {
  console.log(`CK_SANDBOX_KEY=${await newDevelopmentSandboxKey()}`);
} finally {
  await closeDb();
  await database.stop();
}
