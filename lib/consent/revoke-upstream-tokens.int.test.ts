import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { issueAuthorizationCodeDirectly } from "@/lib/ehr";
import { newId } from "@/lib/ids";
import { beginAuthorization, completeAuthorization, storeSourceTokens, type HttpPolicy } from "@/lib/sources";
import { postToken } from "@/test/ehr";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
import { purgeSubjectData } from "./purge-subject";
import { grantReceipt, revokeReceipt } from "./receipts";
import { revokeDueSourceTokens, revokeUpstreamTokensJob, sourcesDueForTokenRevocation } from "./revoke-upstream-tokens";

const PROVIDER = "riverbend-health";
const PATIENT_KEY = "baseline-adult.primary";
const POLICY: HttpPolicy = { timeoutMs: 10_000, maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 1_000 };

const ehr = serveSyntheticEhr();

/** A patient who connected riverbend-health through the SMART client and shares with an application. */
async function connectedSubject(providerId = PROVIDER) {
  const { application } = await createTestApplication();
  const session = await db().connectSession.create({
    data: {
      id: newId("cs_"),
      applicationId: application.id,
      environment: "sandbox",
      categories: ["labs"],
      connectTokenHash: randomBytes(16).toString("hex"),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  const begun = await beginAuthorization({ connectSessionId: session.id, providerId: PROVIDER, redirectUri: `${ehr().origin}/connect/callback` });
  const callbackUrl = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: PATIENT_KEY });
  const { tokens } = await completeAuthorization({ state: begun.state, callbackUrl, policy: POLICY });
  const subject = await createTestSubject(application.id);
  const source = await db().source.create({
    data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId, sourceKey: "primary", connectSessionId: session.id, connected: true },
  });
  await storeSourceTokens(source.id, tokens);
  await db().connectSession.update({ where: { id: session.id }, data: { status: "completed", subjectId: subject.id } });
  const receipt = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"], connectSessionId: session.id });
  return { application, subject, source, receipt, refreshToken: tokens.refreshToken! };
}

/** The confidential client's refresh grant at riverbend-health, straight to its token endpoint. */
const refreshAtEhr = (refreshToken: string) => postToken({ grant_type: "refresh_token", refresh_token: refreshToken });

const revocationAudit = (sourceId: string) =>
  db().auditEntry.findMany({ where: { action: "source.token_revocation", targetId: sourceId }, orderBy: { createdAt: "asc" } });

describe("upstream token revocation when consent ends (RFC 7009)", () => {
  it("connect, revoke the receipt, run the job: the health system refuses the old refresh token and the source holds none", async () => {
    const connected = await connectedSubject();
    // While the receipt is active the job leaves the source alone.
    expect(await sourcesDueForTokenRevocation(new Date(), { subjectId: connected.subject.id })).toEqual([]);

    await revokeReceipt(connected.receipt.id, "patient");
    expect(await sourcesDueForTokenRevocation(new Date(), { subjectId: connected.subject.id })).toEqual([{ id: connected.source.id, subjectId: connected.subject.id }]);
    await revokeUpstreamTokensJob.handler({} as never);

    expect(await refreshAtEhr(connected.refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const row = await db().source.findUniqueOrThrow({ where: { id: connected.source.id } });
    expect(row).toMatchObject({ refreshTokenEncrypted: null, accessTokenEncrypted: null, tokenExpiresAt: null });
    const [entry, ...more] = await revocationAudit(connected.source.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorType: "system", applicationId: connected.application.id, targetType: "source" });
    expect(entry!.after).toMatchObject({ subject: connected.subject.id, provider: PROVIDER, outcome: "revoked" });
    expect(JSON.stringify(entry)).not.toContain(connected.refreshToken);
    // Nothing is left to do: running again changes nothing.
    expect(await revokeDueSourceTokens(new Date(), { subjectId: connected.subject.id })).toEqual([]);
  });

  it("an expired receipt's tokens are revoked too; an active receipt's, or a Connect sign-in in progress, are not", async () => {
    const expired = await connectedSubject();
    await db().consentReceipt.update({ where: { id: expired.receipt.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const stillSharing = await connectedSubject();
    const signingInAgain = await connectedSubject();
    await revokeReceipt(signingInAgain.receipt.id, "patient");
    const again = await db().connectSession.create({
      data: { id: newId("cs_"), applicationId: signingInAgain.application.id, environment: "sandbox", categories: ["labs"], connectTokenHash: randomBytes(16).toString("hex"), expiresAt: new Date(Date.now() + 3_600_000) },
    });
    await db().source.update({ where: { id: signingInAgain.source.id }, data: { connectSessionId: again.id } });

    const results = await revokeDueSourceTokens(new Date(), { policy: POLICY });
    expect(results.filter((result) => [expired.source.id, stillSharing.source.id, signingInAgain.source.id].includes(result.sourceId))).toEqual([
      { sourceId: expired.source.id, outcome: "revoked" },
    ]);
    expect(await refreshAtEhr(expired.refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await refreshAtEhr(stillSharing.refreshToken)).status).toBe(200);
    expect(decryptSecret((await db().source.findUniqueOrThrow({ where: { id: signingInAgain.source.id } })).refreshTokenEncrypted!)).toBe(signingInAgain.refreshToken);
  });

  it("a health system that does not answer: the token is kept, the failure is on the audit trail, the job fails, and the source is retried after a backoff", async () => {
    const connected = await connectedSubject();
    // A provider row whose FHIR base answers 404 to SMART discovery (no such synthetic health system).
    const broken = await db().provider.create({
      data: { id: `broken-${randomBytes(4).toString("hex")}`, environment: "sandbox", name: "Broken Health", fhirBaseUrl: `${ehr().origin}/ehr/nowhere/fhir`, authorizeUrl: `${ehr().origin}/ehr/nowhere/authorize`, tokenUrl: `${ehr().origin}/ehr/nowhere/token`, clientId: "x", clientSecretEncrypted: "" },
    });
    await db().source.update({ where: { id: connected.source.id }, data: { providerId: broken.id } });
    await revokeReceipt(connected.receipt.id, "patient");

    await expect(revokeUpstreamTokensJob.handler({} as never)).rejects.toThrow(/failed for 1 source/);
    const row = await db().source.findUniqueOrThrow({ where: { id: connected.source.id } });
    expect(decryptSecret(row.refreshTokenEncrypted!)).toBe(connected.refreshToken);
    const [failure] = await revocationAudit(connected.source.id);
    expect(failure!.after).toMatchObject({ outcome: "failed", provider: broken.id, providerName: "Broken Health", reason: expect.stringContaining("404") });

    // Within the first minute it waits; after it, it is due again; after a second failure it waits two minutes.
    const at = (seconds: number) => new Date(failure!.createdAt.getTime() + seconds * 1000);
    expect(await sourcesDueForTokenRevocation(at(30), { subjectId: connected.subject.id })).toEqual([]);
    expect(await sourcesDueForTokenRevocation(at(61), { subjectId: connected.subject.id })).toHaveLength(1);
    await revokeDueSourceTokens(new Date(), { subjectId: connected.subject.id, ignoreBackoff: true, policy: POLICY });
    const second = (await revocationAudit(connected.source.id))[1]!;
    expect(await sourcesDueForTokenRevocation(new Date(second.createdAt.getTime() + 61_000), { subjectId: connected.subject.id })).toEqual([]);
    expect(await sourcesDueForTokenRevocation(new Date(second.createdAt.getTime() + 121_000), { subjectId: connected.subject.id })).toHaveLength(1);

    // Once the health system answers again, the next try revokes.
    await db().source.update({ where: { id: connected.source.id }, data: { providerId: PROVIDER } });
    expect(await revokeDueSourceTokens(new Date(), { subjectId: connected.subject.id, ignoreBackoff: true, policy: POLICY })).toEqual([{ sourceId: connected.source.id, outcome: "revoked" }]);
    expect(await refreshAtEhr(connected.refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("a purge that comes first (the patient's deletion, a retention of 0 days) revokes the tokens before it deletes the source", async () => {
    const connected = await connectedSubject();
    await revokeReceipt(connected.receipt.id, "patient");
    expect((await purgeSubjectData(connected.receipt.id)).status).toBe("purged");
    expect(await db().source.count({ where: { id: connected.source.id } })).toBe(0);
    expect(await refreshAtEhr(connected.refreshToken)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await revocationAudit(connected.source.id)).map((entry) => (entry.after as { outcome: string }).outcome)).toEqual(["revoked"]);
  });
});
