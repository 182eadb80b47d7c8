import { afterEach, describe, expect, it, vi } from "vitest";
import { latestProductionRequest, requestProduction } from "@/lib/applications";
import { listAuditEntries } from "@/lib/audit";
import { authenticateKey, createApiKey } from "@/lib/auth";
import { grantReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { getApplicationAccess, type ApplicationAccess } from "@/lib/team";
import { createTestAgentCredential, createTestApplication, createTestDeveloper, createTestSubject } from "@/test/factories";
import {
  approveProductionRequest,
  findOperator,
  listDeploymentApplications,
  refuseProductionRequest,
  reinstateApplication,
  suspendApplication,
  suspensionReason,
} from "@/lib/operators";

const REQUEST = { description: "Shows patients their lab trends between visits.", redirectUrls: ["https://labs.example/connected"], contactEmail: "Ops@Labs.example" };

/** The operators' entries about these applications, newest first. */
async function operatorEntries(applicationIds: string[]) {
  const { entries } = await listAuditEntries({ deployment: true }, {});
  return entries.filter((entry) => entry.actorType === "operator" && applicationIds.includes(entry.applicationId ?? ""));
}

async function ownerAccess(developerId: string, applicationId: string): Promise<ApplicationAccess> {
  const access = await getApplicationAccess(developerId, applicationId);
  if (!access) throw new Error("no access");
  return access;
}

/** An operator named by the deployment setting (so the file's first account does not matter). */
async function namedOperator() {
  const operator = await createTestDeveloper();
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", ` someone@else.example , ${operator.email.toUpperCase()} `);
  return operator;
}

afterEach(() => vi.unstubAllEnvs());

describe("the operator role", () => {
  it("is the deployment's first account when no setting names operators, and only the named accounts when one does", async () => {
    vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", "");
    const first = await createTestDeveloper();
    const later = await createTestDeveloper();
    // This file's database is its own: `first` is the deployment's first account.
    expect(await findOperator(first.id)).toMatchObject({ id: first.id, email: first.email });
    expect(await findOperator(later.id)).toBeNull();
    vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", later.email.toUpperCase());
    expect(await findOperator(later.id)).toMatchObject({ id: later.id });
    expect(await findOperator(first.id)).toBeNull();
    expect(await findOperator("dev_missing")).toBeNull();
  });

  it("refuses every operator action to a non-operator as not found, and changes nothing", async () => {
    await namedOperator();
    const outsider = await createTestDeveloper();
    const { application, developer } = await createTestApplication();
    const request = await requestProduction(await ownerAccess(developer.id, application.id), REQUEST);
    const notFound = { code: "not_found" };
    await expect(listDeploymentApplications(outsider.id)).rejects.toMatchObject(notFound);
    await expect(approveProductionRequest(outsider.id, request.id)).rejects.toMatchObject(notFound);
    await expect(refuseProductionRequest(outsider.id, request.id, { reason: "No thanks at all" })).rejects.toMatchObject(notFound);
    await expect(suspendApplication(outsider.id, application.id, { reason: "Abuse reported" })).rejects.toMatchObject(notFound);
    await expect(reinstateApplication(outsider.id, application.id)).rejects.toMatchObject(notFound);
    // The application's own owner is no operator either.
    await expect(approveProductionRequest(developer.id, request.id)).rejects.toMatchObject(notFound);
    expect(await db().application.findUniqueOrThrow({ where: { id: application.id } })).toMatchObject({ status: "sandbox", productionEnabled: false });
    expect((await latestProductionRequest(application.id))?.status).toBe("pending");
    expect(await db().auditEntry.count({ where: { actorType: "operator" } })).toBe(0);
  });
});

describe("production requests", () => {
  it("validates the request and refuses it for a live, suspended or already waiting application", async () => {
    const operator = await namedOperator();
    const { application, developer } = await createTestApplication();
    const owner = await ownerAccess(developer.id, application.id);
    await expect(requestProduction(owner, { ...REQUEST, description: "too short" })).rejects.toThrow(/at least 20/);
    await expect(requestProduction(owner, { ...REQUEST, redirectUrls: ["http://localhost:3000/cb"] })).rejects.toThrow(/https/);
    await expect(requestProduction(owner, { ...REQUEST, redirectUrls: [] })).rejects.toThrow(/at least one/);
    await expect(requestProduction(owner, { ...REQUEST, contactEmail: "nobody" })).rejects.toThrow(/contact email/);
    expect(await latestProductionRequest(application.id)).toBeNull();

    const saved = await requestProduction(owner, REQUEST);
    expect(saved).toMatchObject({ status: "pending", contactEmail: "ops@labs.example", decisionReason: null });
    await expect(requestProduction(owner, REQUEST)).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/already waiting/) });

    await suspendApplication(operator.id, application.id, { reason: "Under review" });
    await expect(requestProduction(await ownerAccess(developer.id, application.id), REQUEST)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(approveProductionRequest(operator.id, saved.id)).rejects.toMatchObject({ message: expect.stringMatching(/reinstate/) });
    await reinstateApplication(operator.id, application.id);
    await approveProductionRequest(operator.id, saved.id);
    await expect(requestProduction(await ownerAccess(developer.id, application.id), REQUEST)).rejects.toMatchObject({ message: expect.stringMatching(/already enabled/) });
  });

  it("a refusal's reason reaches the developer and live keys stay refused; an approval makes them work", async () => {
    const operator = await namedOperator();
    const { application, developer, liveKey, sandboxKey } = await createTestApplication();
    const other = await createTestApplication();
    await db().application.update({ where: { id: application.id }, data: { redirectUrls: ["https://labs.example/old"] } });
    const owner = await ownerAccess(developer.id, application.id);

    const first = await requestProduction(owner, REQUEST);
    await expect(refuseProductionRequest(operator.id, first.id, { reason: " " })).rejects.toThrow(/reason/);
    await refuseProductionRequest(operator.id, first.id, { reason: "Add a privacy policy link to the description." });
    expect(await latestProductionRequest(application.id)).toMatchObject({ status: "refused", decisionReason: "Add a privacy policy link to the description." });
    await expect(authenticateKey(`Bearer ${liveKey}`, { fresh: true })).rejects.toMatchObject({ code: "production_not_enabled" });
    await expect(approveProductionRequest(operator.id, first.id)).rejects.toMatchObject({ message: expect.stringMatching(/already refused/) });

    const second = await requestProduction(owner, { ...REQUEST, description: `${REQUEST.description} Privacy: https://labs.example/privacy` });
    const listed = await listDeploymentApplications(operator.id);
    expect(listed.find((row) => row.id === application.id)).toMatchObject({ ownerEmail: developer.email, request: { id: second.id, status: "pending" } });
    // Waiting requests come first.
    expect(listed.findIndex((row) => row.id === application.id)).toBeLessThan(listed.findIndex((row) => row.id === other.application.id));
    expect(listed.find((row) => row.id === other.application.id)?.request).toBeNull();

    await approveProductionRequest(operator.id, second.id, { note: "Welcome aboard" });
    expect(await db().application.findUniqueOrThrow({ where: { id: application.id } })).toMatchObject({
      productionEnabled: true,
      status: "active",
      redirectUrls: ["https://labs.example/old", "https://labs.example/connected"],
    });
    expect((await authenticateKey(`Bearer ${liveKey}`, { fresh: true })).environment).toBe("live");
    expect((await authenticateKey(`Bearer ${sandboxKey}`, { fresh: true })).environment).toBe("sandbox");
    // Another application is untouched.
    expect(await db().application.findUniqueOrThrow({ where: { id: other.application.id } })).toMatchObject({ productionEnabled: false, status: "sandbox" });
    await expect(authenticateKey(`Bearer ${other.liveKey}`, { fresh: true })).rejects.toMatchObject({ code: "production_not_enabled" });

    const audit = await operatorEntries([application.id]);
    expect(audit.map((entry) => [entry.action, entry.applicationId, entry.actorLabel])).toEqual([
      ["production.approve", application.id, operator.email],
      ["production.refuse", application.id, operator.email],
    ]);
    expect(audit[1]).toMatchObject({ targetId: first.id, after: { status: "refused", reason: "Add a privacy policy link to the description." } });
  });
});

describe("suspension", () => {
  it("makes every key answer app_suspended, revokes agent credentials and ends open runs; reinstating restores the status", async () => {
    const operator = await namedOperator();
    const { application, developer, liveKey, sandboxKey, sandboxKeyId } = await createTestApplication();
    const bystander = await createTestApplication();
    const subject = await createTestSubject(application.id);
    const receipt = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
    const credential = await createTestAgentCredential({ receipt, parentKeyId: sandboxKeyId });
    const run = await db().conformanceRun.create({
      data: { id: newId("run_"), applicationId: application.id, scenario: "basic", syncMode: "one_time", status: "open", expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const runKey = await createApiKey({ applicationId: application.id, environment: "sandbox", conformanceRunId: run.id });
    const request = await requestProduction(await ownerAccess(developer.id, application.id), REQUEST);
    await approveProductionRequest(operator.id, request.id);

    await expect(suspendApplication(operator.id, application.id, { reason: "no" })).rejects.toThrow(/reason/);
    await expect(suspendApplication(operator.id, "app_missing", { reason: "Abuse reported" })).rejects.toMatchObject({ code: "not_found" });
    await suspendApplication(operator.id, application.id, { reason: "Abuse reported by a patient" });
    await expect(suspendApplication(operator.id, application.id, { reason: "Abuse reported" })).rejects.toMatchObject({ code: "invalid_input" });
    for (const key of [liveKey, sandboxKey]) await expect(authenticateKey(`Bearer ${key}`, { fresh: true })).rejects.toMatchObject({ code: "app_suspended" });
    expect((await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } })).revokedAt).toBeInstanceOf(Date);
    expect(await db().conformanceRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "cancelled", endedAt: expect.any(Date) });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: runKey.id } })).revokedAt).toBeInstanceOf(Date);
    expect(await suspensionReason(application.id)).toBe("Abuse reported by a patient");
    expect((await authenticateKey(`Bearer ${bystander.sandboxKey}`, { fresh: true })).environment).toBe("sandbox");

    await reinstateApplication(operator.id, application.id);
    await expect(reinstateApplication(operator.id, application.id)).rejects.toMatchObject({ code: "invalid_input" });
    expect((await db().application.findUniqueOrThrow({ where: { id: application.id } })).status).toBe("active");
    expect((await authenticateKey(`Bearer ${liveKey}`, { fresh: true })).environment).toBe("live");

    // An application never approved returns to the sandbox.
    await suspendApplication(operator.id, bystander.application.id, { reason: "Abuse reported" });
    await reinstateApplication(operator.id, bystander.application.id);
    expect((await db().application.findUniqueOrThrow({ where: { id: bystander.application.id } })).status).toBe("sandbox");
    const audited = await operatorEntries([application.id, bystander.application.id]);
    expect(audited.map((entry) => entry.action)).toEqual([
      "application.reinstate",
      "application.suspend",
      "application.reinstate",
      "application.suspend",
      "production.approve",
    ]);
  });
});
