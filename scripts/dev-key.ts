// `npm run dev:key`: a fresh sandbox key for the development application, as a line scripts can parse.
import { loadLocalEnv } from "@/lib/config";

await loadLocalEnv();
const { newDevelopmentSandboxKey } = await import("@/lib/applications");
const { closeDb, openPlatformDatabase } = await import("@/lib/db");

const database = await openPlatformDatabase();
try {
  console.log(`CK_SANDBOX_KEY=${await newDevelopmentSandboxKey()}`);
} finally {
  await closeDb();
  await database.stop();
}
