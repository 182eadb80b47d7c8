// A launcher of the embedded database in its own process, for tests that kill one without letting it stop its
// server: `tsx test/hold-embedded-database.ts <dataDir>` with DATABASE_URL unset prints the URL, then waits.
import { resolveDatabase } from "@/lib/db";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: hold-embedded-database.ts <dataDir>");
const database = await resolveDatabase({ dataDir });
console.log(`holding ${database.url}`);
setInterval(() => {}, 60_000);
