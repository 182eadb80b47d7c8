import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { currentSealPrefix, decryptSecret } from "@/lib/auth";
import { receiptByLink, sessionByLink } from "@/lib/connect";
import { db } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { importSource } from "@/lib/imports";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { webhookDeliveryJob } from "@/lib/webhooks";
import { request, startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";
import { createSession, serveSyntheticEhr, simulatedUser } from "@/test/sandbox";
import { startReceiver, waitFor } from "@/test/webhook-receiver";

// CHARTKEY_SECRET rotated under a running platform, over real HTTP: the API server, the synthetic health systems
// and a webhook receiver keep answering while `npm run secret:rotate` (the real command, in its own process)
// re-encrypts everything at rest; afterwards, with the previous secret removed, everything still decrypts.

serveSyntheticEhr();

const OLD = process.env.CHARTKEY_SECRET!;
const NEW = `rotated-${randomBytes(24).toString("base64url")}`;

let origin: string;
let closeServer: () => Promise<void>;
let worker: RunningWorker;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
  ({ origin, close: closeServer } = await startApiServer());
  worker = await startWorker(process.env.DATABASE_URL!, [webhookDeliveryJob]);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await worker.stop();
  await stopSender();
  await receiver?.close();
  await closeServer();
});

/** `npm run secret:rotate` as an operator runs it, against this file's database, with the rotation's settings. */
function runRotateCommand(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/secret-rotate.ts"], {
      env: { ...process.env, CHARTKEY_SECRET: NEW, CHARTKEY_SECRET_PREVIOUS: OLD },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/** Every value sealed at rest, by where it is stored. */
async function sealedValues(): Promise<Array<[string, string]>> {
  const [applications, providers, sources, authorizations] = await Promise.all([
    db().application.findMany({ select: { id: true, signingSecretEncrypted: true, previousSigningSecretEncrypted: true } }),
    db().provider.findMany({ select: { id: true, clientSecretEncrypted: true } }),
    db().source.findMany({ select: { id: true, accessTokenEncrypted: true, refreshTokenEncrypted: true } }),
    db().sourceAuthorization.findMany({ select: { id: true, codeVerifierEncrypted: true } }),
  ]);
  const values: Array<[string, string | null]> = [
    ...applications.flatMap((row): Array<[string, string | null]> => [[`${row.id}.signing`, row.signingSecretEncrypted], [`${row.id}.previousSigning`, row.previousSigningSecretEncrypted]]),
    ...providers.map((row): [string, string | null] => [`${row.id}.clientSecret`, row.clientSecretEncrypted]),
    ...sources.flatMap((row): Array<[string, string | null]> => [[`${row.id}.access`, row.accessTokenEncrypted], [`${row.id}.refresh`, row.refreshTokenEncrypted]]),
    ...authorizations.map((row): [string, string | null] => [`${row.id}.verifier`, row.codeVerifierEncrypted]),
  ];
  return values.filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== "");
}

/** Imports the source as the import job does and answers how the import ended. */
async function importStatus(sourceId: string): Promise<string> {
  const { importId } = await importSource(sourceId);
  return (await db().sourceImport.findUniqueOrThrow({ where: { id: importId } })).status;
}

/** A page as a client reads it; the cursors it carries are signed under whichever secret is current. */
const content = (body: Record<string, unknown>) => ({ data: body.data, hasMore: body.hasMore });

const get = (token: string, pathname: string) => request(origin, "GET", `/api/v1${pathname}`, { token });

describe("rotating CHARTKEY_SECRET", () => {
  it("keeps cursors, webhook signatures, source tokens and patients' links working through a rotation, then without the previous secret", { timeout: 120_000 }, async () => {
    // Before: an application with a webhook, a sharing subject whose sources hold SMART tokens, and what a client
    // and a patient hold from the old secret: a page cursor, a change cursor, a connect link and a receipt link.
    const { application, sandboxKey } = await createTestApplication({ webhookUrl: "http://127.0.0.1:1/placeholder" });
    const signingSecret = decryptSecret(application.signingSecretEncrypted);
    receiver = await startReceiver(signingSecret);
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: `${receiver.origin}/hooks` } });
    const { subject, session } = await simulatedUser(sandboxKey, "baseline-adult");
    const firstPage = await get(sandboxKey, `/users/${subject}/records/labs?limit=1`);
    expect(firstPage.status).toBe(200);
    const pageCursor = firstPage.body.nextCursor as string;
    const changeCursor = (firstPage.body.meta as { changeCursor: string }).changeCursor;
    expect(pageCursor).toBeTruthy();
    const secondPage = (await get(sandboxKey, `/users/${subject}/records/labs?limit=1&cursor=${encodeURIComponent(pageCursor)}`)).body;
    const changes = (await get(sandboxKey, `/users/${subject}/records/labs/changes?cursor=${encodeURIComponent(changeCursor)}`)).body;
    const pending = await createSession(sandboxKey);
    const oldConnectToken = new URL(pending.connectUrl as string).pathname.split("/").at(-1)!;
    const receiptId = session.receiptId as string;
    const oldReceiptToken = new URL((await get(sandboxKey, `/consents/${receiptId}`)).body.receiptUrl as string).pathname.split("/").at(-1)!;
    const sourceId = session.sources[0]!.sourceId;
    expect((await sealedValues()).length).toBeGreaterThan(5);

    // The deployment restarts with the new secret and the old one as previous; the platform keeps serving while
    // the command runs, and every request made meanwhile is answered as before.
    vi.stubEnv("CHARTKEY_SECRET", NEW);
    vi.stubEnv("CHARTKEY_SECRET_PREVIOUS", OLD);
    const rotation = runRotateCommand();
    let done = false;
    void rotation.then(() => (done = true));
    const answers: number[] = [];
    while (!done) {
      const [page, feed] = await Promise.all([
        get(sandboxKey, `/users/${subject}/records/labs?limit=1&cursor=${encodeURIComponent(pageCursor)}`),
        get(sandboxKey, `/users/${subject}/records/labs/changes?cursor=${encodeURIComponent(changeCursor)}`),
      ]);
      answers.push(page.status, feed.status);
      expect(content(page.body)).toEqual(content(secondPage));
      // Paced under the key's rate limit (300 a minute): on a fast machine an unpaced loop is refused with 429.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const { code, output } = await rotation;
    expect(code, output).toBe(0);
    expect(output).toMatch(/re-encrypted \d+ Application row/);
    expect(answers.length).toBeGreaterThan(0);
    expect(new Set(answers)).toEqual(new Set([200]));

    // Everything at rest is now under the new secret's key.
    const prefix = currentSealPrefix();
    expect((await sealedValues()).filter(([, value]) => !value.startsWith(prefix))).toEqual([]);
    // A second run finds nothing left to do.
    const again = await runRotateCommand();
    expect(again.output).toMatch(/re-encrypted 0 Application row\(s\)[\s\S]*re-encrypted 0 Source row\(s\)[\s\S]*moved 0 connect link\(s\) and 0 receipt link\(s\)/);
    expect(await db().auditEntry.count({ where: { action: "deployment.secret_rotate" } })).toBe(2);

    // Old cursors still page; deliveries are signed with the application's (unchanged) signing secret.
    expect(content((await get(sandboxKey, `/users/${subject}/records/labs/changes?cursor=${encodeURIComponent(changeCursor)}`)).body)).toEqual(content(changes));
    const during = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "consent.granted", data: { subject, receiptId } });
    await waitFor(() => receiver.received.find((delivery) => delivery.id === during.id), "a delivery during the rotation window");
    // The source's SMART access token from before still reads the health system; an expired one is refreshed.
    expect(await importStatus(sourceId)).toBe("completed");
    const before = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
    await db().source.update({ where: { id: sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 60_000) } });
    expect(await importStatus(sourceId)).toBe("completed");
    const refreshed = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
    expect(decryptSecret(refreshed.accessTokenEncrypted!)).not.toBe(decryptSecret(before.accessTokenEncrypted!));
    // Patients' links: the ones handed out before still open; the API now shows the new secret's, which open too.
    expect((await sessionByLink(oldConnectToken)).id).toBe(pending.id);
    const newConnectUrl = (await get(sandboxKey, `/connect/sessions/${pending.id}`)).body.connectUrl as string;
    expect(newConnectUrl).not.toContain(oldConnectToken);
    expect((await sessionByLink(new URL(newConnectUrl).pathname.split("/").at(-1)!)).id).toBe(pending.id);
    expect((await receiptByLink(oldReceiptToken)).id).toBe(receiptId);
    const newReceiptUrl = (await get(sandboxKey, `/consents/${receiptId}`)).body.receiptUrl as string;
    expect((await receiptByLink(new URL(newReceiptUrl).pathname.split("/").at(-1)!)).id).toBe(receiptId);

    // The previous secret is removed: everything still decrypts, imports refresh, deliveries verify, new cursors
    // page. What was signed under the old secret alone (its cursors) is refused from now on, as documented.
    vi.stubEnv("CHARTKEY_SECRET_PREVIOUS", "");
    for (const [where, value] of await sealedValues()) expect(() => decryptSecret(value), where).not.toThrow();
    await db().source.update({ where: { id: sourceId }, data: { tokenExpiresAt: new Date(Date.now() - 60_000) } });
    expect(await importStatus(sourceId)).toBe("completed");
    const after = await recordEvent({ applicationId: application.id, environment: "sandbox", type: "consent.granted", data: { subject, receiptId } });
    await waitFor(() => receiver.received.find((delivery) => delivery.id === after.id), "a delivery after the previous secret is gone");
    expect(receiver.rejected).toEqual([]);
    const fresh = await get(sandboxKey, `/users/${subject}/records/labs?limit=1`);
    expect(content((await get(sandboxKey, `/users/${subject}/records/labs?limit=1&cursor=${encodeURIComponent(fresh.body.nextCursor as string)}`)).body)).toEqual(content(secondPage));
    expect((await get(sandboxKey, `/users/${subject}/records/labs?limit=1&cursor=${encodeURIComponent(pageCursor)}`)).body.error).toMatchObject({ code: "invalid_cursor" });
    expect((await receiptByLink(oldReceiptToken)).id).toBe(receiptId);
  });
});
