// The quickstart (docs/quickstart.md): a sandbox patient connected and one category of their normalized
// records read into your own code with @chartkey/sdk. Run it against `npm start` with a key from `npm run dev:key`:
//
//   CK_SANDBOX_KEY=ck_test_... npx tsx examples/quickstart/main.ts
import { Chartkey, type HealthRecord } from "@chartkey/sdk";

const apiKey = process.env.CK_SANDBOX_KEY;
if (!apiKey) throw new Error("Set CK_SANDBOX_KEY (npm run dev:key prints one).");
const chartkey = new Chartkey({ apiKey, baseUrl: process.env.CHARTKEY_API_URL ?? "http://localhost:3000/api/v1" });

// 1. A Connect session: in production you send the patient to session.connectUrl to sign in at their health system.
const session = await chartkey.createConnectSession({ categories: ["medications", "allergies", "labs", "conditions"] });
console.log(`Connect session ${session.id}`);

// 2. In the sandbox, a synthetic patient completes it instead, without a hospital sign-in.
await chartkey.simulateConnectSession(session.id, "baseline-adult");
let connected = await chartkey.getConnectSession(session.id);
while (connected.simulation?.state !== "completed") {
  if (connected.simulation?.state === "failed") throw new Error(`simulation failed: ${connected.simulation.failureCode}`);
  await new Promise((resolve) => setTimeout(resolve, 500));
  connected = await chartkey.getConnectSession(session.id);
}
const subject = connected.subject!;
console.log(`Connected subject ${subject}`);

// 3. Read a category into your own store. Save the cursor with the records: the next syncCategory call with it reads
//    only what changed (upserts and deletions, in order).
const medications = new Map<string, HealthRecord>();
const { cursor } = await chartkey.syncCategory(subject, "medications", {
  upsert: (recordId, record) => void medications.set(recordId, record),
  remove: (recordId) => void medications.delete(recordId),
});
console.log(`Read ${medications.size} medications; saved cursor ${cursor.slice(0, 12)}...`);

const first = [...medications.values()][0];
if (first) console.log(JSON.stringify(first, null, 2));
