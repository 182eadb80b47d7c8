// The health system of the import bench, in a process of its own: `tsx scripts/bench/import-ehr.ts`, with the
// importing process's DATABASE_URL, CHARTKEY_SECRET and CHARTKEY_SANDBOX_LONG_HISTORY_RESOURCES. Serves the synthetic
// EHR's route files over HTTP (as a health system is another server) and prints `ORIGIN <url>` once listening, so
// the importing process's memory and CPU are the import's alone. Runs until it is killed.
process.env.LOG_LEVEL ??= "warn";
const { heldResources } = await import("@/lib/sandbox");
const { servedResourceText } = await import("@/lib/ehr");
const { serveRouteFiles } = await import("@/test/route-server");
// The long-history patient is grown, and each resource's served text written, on first use; a health system has
// its records (as the text it serves) before anyone asks for them.
for (const resource of heldResources("long-history", "primary", 0)) servedResourceText(resource);
const ehr = await serveRouteFiles("ehr");
// The links the health system writes (next pages, its endpoints) name the origin it listens on.
process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
// Route modules load on their first request: a search without a token (401) loads the search route's.
await fetch(`${ehr.origin}/ehr/riverbend-health/fhir/Observation`);
console.log(`ORIGIN ${ehr.origin}`);

export {};
