import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { flushRequestLog } from "@/lib/http";
import { getApplicationAccess } from "@/lib/team";
import { agentReads } from "@/lib/usage";
import { issueCredential, subjectWithCredential } from "@/test/agents";
import { request, startApiServer } from "@/test/api-server";
import { activeCredentials, revokeCredentialFor } from "./manage-credentials";

// What the dashboard shows and does with delegated credentials: the subject page's active credentials and its revoke
// button, and the usage page's "who read what, and why".

let origin: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ origin, close } = await startApiServer());
});
afterAll(() => close());

async function ownerAccess(applicationId: string, developerId: string) {
  const access = await getApplicationAccess(developerId, applicationId);
  if (!access) throw new Error("no access");
  return access;
}

describe("delegated credentials in the dashboard", () => {
  it("lists a subject's credentials whose authority holds, newest first, and revokes one (members too, for sandbox)", async () => {
    const { credential, application, subject, sandboxKey } = await subjectWithCredential(origin);
    const developerId = (await db().application.findUniqueOrThrow({ where: { id: application.id } })).developerId;
    const access = await ownerAccess(application.id, developerId);
    const newer = await issueCredential(origin, sandboxKey, { subject: subject.id, categories: ["labs"], purpose: "Plot the A1c trend", durationSeconds: 300 });
    const expired = await issueCredential(origin, sandboxKey, { subject: subject.id, categories: ["labs"], purpose: "old", durationSeconds: 300 });
    await db().agentCredential.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const listed = await activeCredentials(access, subject.id);
    expect(listed.map((row) => [row.id, row.purpose])).toEqual([
      [newer.id, "Plot the A1c trend"],
      [credential.id, "Summarize current medications before the visit"],
    ]);
    expect(listed[0]).toMatchObject({ environment: "sandbox", keyName: expect.any(String), keyPrefix: sandboxKey.slice(0, 12) });

    await revokeCredentialFor({ ...access, role: "member" }, newer.id);
    expect((await activeCredentials(access, subject.id)).map((row) => row.id)).toEqual([credential.id]);
    expect((await request(origin, "GET", `/api/v1/users/${subject.id}/records`, { token: newer.token })).status).toBe(401);

    await revokeReceipt((await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } })).receiptId, "patient");
    expect(await activeCredentials(access, subject.id)).toEqual([]);
  });

  it("never reaches another application's credential", async () => {
    const mine = await subjectWithCredential(origin);
    const theirs = await subjectWithCredential(origin);
    const developerId = (await db().application.findUniqueOrThrow({ where: { id: mine.application.id } })).developerId;
    const access = await ownerAccess(mine.application.id, developerId);
    await expect(revokeCredentialFor(access, theirs.credential.id)).rejects.toThrow(/not found/i);
    expect(await activeCredentials(access, theirs.subject.id)).toEqual([]);
    expect((await request(origin, "GET", `/api/v1/users/${theirs.subject.id}/records`, { token: theirs.credential.token })).status).toBe(200);
  });

  it("shows who read what, and why: each credential request with its purpose, and only the application's own", async () => {
    const { credential, application, subject } = await subjectWithCredential(origin);
    const other = await subjectWithCredential(origin);
    await request(origin, "GET", `/api/v1/users/${subject.id}/records/labs`, { token: credential.token });
    await request(origin, "GET", `/api/v1/users/${subject.id}/records/claims`, { token: credential.token });
    await request(origin, "GET", `/api/v1/users/${other.subject.id}/records`, { token: other.credential.token });
    await flushRequestLog();
    const reads = await agentReads({ applicationId: application.id });
    expect(reads.map((read) => [read.route, read.subjectId, read.status, read.errorCode, read.credentialId, read.purpose])).toEqual([
      ["GET /users/{subject}/records/{category}", subject.id, 403, "credential_scope_exceeded", credential.id, "Summarize current medications before the visit"],
      ["GET /users/{subject}/records/{category}", subject.id, 200, null, credential.id, "Summarize current medications before the visit"],
    ]);
  });
});
