import { devSandboxKey, platformDatabaseUrl } from "@/test/e2e-platform";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { decryptSecret } from "@/lib/auth";
import { loadLocalEnv } from "@/lib/config";
import { startReceiver } from "@/test/webhook-receiver";

// The running platform's worker delivers signed webhooks to a receiver that verifies them with the public
// standardwebhooks library, as a developer's backend would: consent.granted on simulate, records.updated after
// records.advance (continuous consent), consent.revoked after consent.revoke.

test("simulated patient: every event arrives signed and verifiable", async ({ request }) => {
  test.setTimeout(120_000);
  const key = devSandboxKey();
  const auth = { Authorization: `Bearer ${key}` };
  const application = (await (await request.get("/api/v1/app", { headers: auth })).json()) as { id: string };

  // The dashboard will set these; until it exists the test sets them where the platform keeps them.
  await loadLocalEnv();
  const url = platformDatabaseUrl();
  const database = new pg.Client({ connectionString: url });
  await database.connect();
  const [row] = (await database.query(`SELECT "signingSecretEncrypted" FROM "Application" WHERE id = $1`, [application.id])).rows as { signingSecretEncrypted: string }[];
  const receiver = await startReceiver(decryptSecret(row!.signingSecretEncrypted));
  await database.query(`UPDATE "Application" SET "webhookUrl" = $1, "syncMode" = 'continuous' WHERE id = $2`, [`${receiver.origin}/hooks`, application.id]);

  try {
    const session = (await (await request.post("/api/v1/connect/sessions", { headers: auth, data: { categories: ["labs", "medications", "conditions"] } })).json()) as { id: string };
    const simulated = (await (await request.post(`/api/v1/connect/sessions/${session.id}/simulate`, { headers: auth, data: { scenario: "baseline-adult" } })).json()) as { subject: string };
    const subject = simulated.subject;
    const events = (type: string) => receiver.received.filter((event) => event.type === type && (event.payload.data as { subject?: string }).subject === subject);

    await expect.poll(() => events("consent.granted").length, { timeout: 60_000 }).toBe(1);
    await expect
      .poll(async () => ((await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth })).json()) as { simulation: { state: string } }).simulation.state, { timeout: 60_000 })
      .toBe("completed");

    expect((await request.post(`/api/v1/sandbox/subjects/${subject}/events`, { headers: auth, data: { type: "records.advance" } })).status()).toBe(200);
    await expect.poll(() => events("records.updated").length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    const updated = events("records.updated").at(-1)!;
    expect(updated.headers["webhook-id"]).toBe(updated.id);
    expect(JSON.stringify(updated.payload)).not.toContain("valueQuantity");

    expect((await request.post(`/api/v1/sandbox/subjects/${subject}/events`, { headers: auth, data: { type: "consent.revoke" } })).status()).toBe(200);
    await expect.poll(() => events("consent.revoked").length, { timeout: 60_000 }).toBe(1);
    expect((await request.get(`/api/v1/users/${subject}/records/labs`, { headers: auth })).status()).toBe(404);
    expect(receiver.rejected).toEqual([]);
  } finally {
    await database.query(`UPDATE "Application" SET "webhookUrl" = NULL, "syncMode" = 'one_time' WHERE id = $1`, [application.id]);
    await database.end();
    await receiver.close();
  }
});
