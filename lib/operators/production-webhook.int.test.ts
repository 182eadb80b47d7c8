import { afterEach, describe, expect, it, vi } from "vitest";
import { latestProductionRequest, requestProduction, setWebhookUrl } from "@/lib/applications";
import { listAuditEntries } from "@/lib/audit";
import { db } from "@/lib/db";
import { getApplicationAccess, type ApplicationAccess } from "@/lib/team";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { approveProductionRequest, describeLiveWebhook, listDeploymentApplications, refuseProductionRequest } from "@/lib/operators";

// Issue 51, point 5: an application that asked for production without a webhook URL cannot be approved into live
// events that all fail.

const REQUEST = { description: "Shows patients their lab trends between visits.", redirectUrls: ["https://labs.example/connected"], contactEmail: "ops@labs.example" };

async function accessOf(developerId: string, applicationId: string): Promise<ApplicationAccess> {
  const access = await getApplicationAccess(developerId, applicationId);
  if (!access) throw new Error("no access");
  return access;
}

async function namedOperator() {
  const operator = await createTestDeveloper();
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
  return operator;
}

/** An application whose owner asked for production with no webhook URL. */
async function requested() {
  const { application, developer } = await createTestApplication();
  const owner = await accessOf(developer.id, application.id);
  const request = await requestProduction(owner, REQUEST);
  return { application, developer, request, owner: await accessOf(developer.id, application.id) };
}

async function viewOf(operatorId: string, applicationId: string) {
  return (await listDeploymentApplications(operatorId)).find((row) => row.id === applicationId)!;
}

afterEach(() => vi.unstubAllEnvs());

describe("a webhook URL set while production is requested", () => {
  it("must pass the live rules: the webhooks page's save refuses http, private and localhost URLs with the reason", async () => {
    const { application, owner } = await requested();
    // Where sandbox receivers may be local, the live rules still apply once production is asked for.
    vi.stubEnv("CHARTKEY_ALLOW_PRIVATE_WEBHOOKS", "on");
    for (const [url, reason] of [
      ["http://hooks.example.com/x", "live webhooks must use https"],
      ["https://10.0.0.5/x", "the host is not a public address"],
      ["http://localhost:4000/hooks", "live webhooks must use https"],
      ["https://localhost:4000/hooks", "the host is not a public address"],
    ]) {
      await expect(setWebhookUrl(owner, { webhookUrl: url! }), url).rejects.toMatchObject({
        code: "invalid_input",
        message: expect.stringContaining(`${reason}. Production has been requested, so the live rules apply: https, on a public host.`),
      });
    }
    expect((await db().application.findUniqueOrThrow({ where: { id: application.id } })).webhookUrl).toBeNull();
    expect((await setWebhookUrl(owner, { webhookUrl: "https://hooks.example.com/x" })).webhookUrl).toBe("https://hooks.example.com/x");
    expect((await setWebhookUrl(owner, { webhookUrl: null })).webhookUrl).toBeNull();
  });

  it("is judged by the application's state now, not by the page's stale copy of it", async () => {
    const { application, developer } = await createTestApplication();
    // The access as a page loaded it before production was asked for (its copy says sandbox, no request).
    const stale = await accessOf(developer.id, application.id);
    await requestProduction(stale, REQUEST);
    await expect(setWebhookUrl(stale, { webhookUrl: "http://hooks.example.com/x" })).rejects.toMatchObject({ message: expect.stringMatching(/live webhooks must use https/) });
  });

  it("goes back to the sandbox rules once the request is refused", async () => {
    const operator = await namedOperator();
    const { request, owner } = await requested();
    await refuseProductionRequest(operator.id, request.id, { reason: "Tell us more about the application." });
    expect((await setWebhookUrl(owner, { webhookUrl: "http://hooks.example.com/x" })).webhookUrl).toBe("http://hooks.example.com/x");
    // And asking again with it is refused, as before.
    await expect(requestProduction(owner, REQUEST)).rejects.toMatchObject({ message: expect.stringMatching(/live webhooks refuse it: live webhooks must use https/) });
  });
});

describe("approving production", () => {
  it("re-checks the webhook URL at approval: one the live rules refuse, set after the request, blocks it and changes nothing", async () => {
    const operator = await namedOperator();
    const { application, request } = await requested();
    // Set after the request, past the save check (a URL stored before the rule existed, or by any other path).
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: "http://hooks.example.com/x" } });

    const view = await viewOf(operator.id, application.id);
    expect(view.webhook).toEqual({ url: "http://hooks.example.com/x", verdict: "refused", reason: "live webhooks must use https" });
    expect(describeLiveWebhook(view.webhook!)).toBe("http://hooks.example.com/x — refused: live webhooks must use https");

    await expect(approveProductionRequest(operator.id, request.id)).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/^The application's webhook URL http:\/\/hooks\.example\.com\/x is refused by the live rules \(live webhooks must use https\)/),
    });
    expect(await db().application.findUniqueOrThrow({ where: { id: application.id } })).toMatchObject({ productionEnabled: false, status: "sandbox" });
    expect(await latestProductionRequest(application.id)).toMatchObject({ id: request.id, status: "pending" });
    const { entries } = await listAuditEntries({ deployment: true }, {});
    expect(entries.filter((entry) => entry.applicationId === application.id).map((entry) => entry.action)).toEqual(["production.request"]);

    // A loopback address as written is refused too; the operator can still refuse the request.
    await db().application.update({ where: { id: application.id }, data: { webhookUrl: "https://127.0.0.1/x" } });
    await expect(approveProductionRequest(operator.id, request.id)).rejects.toMatchObject({ message: expect.stringMatching(/the host is not a public address/) });
    await refuseProductionRequest(operator.id, request.id, { reason: "Set a public https webhook URL, then ask again." });
    expect(await latestProductionRequest(application.id)).toMatchObject({ status: "refused" });
  });

  it("accepts a URL the live rules accept, set after the request, and says so in the view", async () => {
    const operator = await namedOperator();
    const { application, request, owner } = await requested();
    await setWebhookUrl(owner, { webhookUrl: "https://hooks.example.com/x" });
    expect(describeLiveWebhook((await viewOf(operator.id, application.id)).webhook!)).toBe("https://hooks.example.com/x — accepted for live");
    await approveProductionRequest(operator.id, request.id);
    expect(await db().application.findUniqueOrThrow({ where: { id: application.id } })).toMatchObject({ productionEnabled: true, status: "active", webhookUrl: "https://hooks.example.com/x" });
    const { entries } = await listAuditEntries({ deployment: true }, { action: "production.approve" });
    expect(entries.find((entry) => entry.applicationId === application.id)?.after).toMatchObject({ webhookUrl: "https://hooks.example.com/x" });
    // Decided requests carry no verdict: the live rules guard every later save.
    expect((await viewOf(operator.id, application.id)).webhook).toBeNull();
  });

  it("may approve an application with no webhook URL, the view saying live events will not be delivered", async () => {
    const operator = await namedOperator();
    const { application, request } = await requested();
    const view = await viewOf(operator.id, application.id);
    expect(view.webhook).toEqual({ url: null, verdict: "none" });
    expect(describeLiveWebhook(view.webhook!)).toBe("no webhook URL: live events will not be delivered");
    await approveProductionRequest(operator.id, request.id);
    expect(await db().application.findUniqueOrThrow({ where: { id: application.id } })).toMatchObject({ productionEnabled: true, webhookUrl: null });
  });
});
