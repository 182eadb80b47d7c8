// `npm run secret:rotate`: re-encrypts what is encrypted at rest under the current CHARTKEY_SECRET while
// CHARTKEY_SECRET_PREVIOUS still decrypts the rest (docs/operations.md, "Rotating CHARTKEY_SECRET"). Joins the
// running database (DATABASE_URL, or the embedded one in CHARTKEY_DATA_DIR), or starts the embedded one briefly.
import { loadLocalEnv } from "@/lib/config";

await loadLocalEnv();
if (!process.env.CHARTKEY_SECRET_PREVIOUS) {
  console.error("Set CHARTKEY_SECRET_PREVIOUS to the secret being replaced (and CHARTKEY_SECRET to the new one) first.");
  process.exit(2);
}
const { closeDb, openPlatformDatabase } = await import("@/lib/db");
const { rotateSecrets } = await import("@/lib/secret-rotation");

const database = await openPlatformDatabase();
try {
  const report = await rotateSecrets();
  for (const [table, count] of Object.entries(report.reencrypted)) console.log(`re-encrypted ${count} ${table} row(s)`);
  console.log(`moved ${report.relinked.sessions} connect link(s) and ${report.relinked.receipts} receipt link(s) to the new secret`);
  console.log("Done: everything at rest is under CHARTKEY_SECRET. Keep CHARTKEY_SECRET_PREVIOUS until what was signed under it has expired (docs/operations.md).");
} finally {
  await closeDb();
  await database.stop();
}
