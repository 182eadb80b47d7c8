import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createInvitation, sendInvitationEmail } from "@/lib/team";
import { emailOperatorsOfProductionRequest, emailOwnersOfProductionDecision } from "@/lib/operators";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { smtpSinkForFile } from "@/test/smtp-sink";

const sink = smtpSinkForFile();

beforeAll(() => {
  vi.stubEnv("CHARTKEY_SMTP_URL", sink.url);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe("invitation and production email, through a real SMTP server", () => {
  it("emails an invitation's link to the invited address, in the language of its account", async () => {
    const { developer, application } = await createTestApplication({ name: "Clinic Notes" });
    const invitee = await createTestDeveloper();
    await db().developer.update({ where: { id: invitee.id }, data: { locale: "es" } });
    const created = await createInvitation({ applicationId: application.id, invitedById: developer.id, email: invitee.email, role: "member" });
    expect(await sendInvitationEmail({ invitation: created.invitation, token: created.token, origin: "https://dash.example" })).toBe(true);
    const message = await sink.next(invitee.email);
    expect(message.subject).toBe(`Test Developer (${developer.email}) le invitó a Clinic Notes en Chartkey`);
    expect(message.text).toContain(`https://dash.example/invitations/${created.token}`);
    expect(message.html).toContain(`href="https://dash.example/invitations/${created.token}"`);
  });

  it("tells the operators of a production request and the owners of its decision", async () => {
    vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", "ops-mail@example.test");
    const operator = await createTestDeveloper("ops-mail@example.test");
    const { developer, application } = await createTestApplication({ name: "Going Live" });
    const request = await db().productionRequest.create({ data: { id: `preq_${Date.now()}`, applicationId: application.id, requestedById: developer.id, description: "Notes", redirectUrls: [], contactEmail: developer.email } });
    expect(await emailOperatorsOfProductionRequest(application.id)).toBe(1);
    const toOperator = await sink.next(operator.email);
    expect(toOperator.subject).toBe("Production request: Going Live");
    expect(toOperator.text).toContain(`${developer.email} asked for production access for the application Going Live.`);
    expect(toOperator.text).toMatch(/\/dashboard\/operator\n/);

    await db().productionRequest.update({ where: { id: request.id }, data: { status: "refused", decisionReason: "Add a privacy policy." } });
    expect(await emailOwnersOfProductionDecision(request.id)).toBe(1);
    const toOwner = await sink.next(developer.email);
    expect(toOwner.subject).toBe("Production request refused: Going Live");
    expect(toOwner.text).toContain("Add a privacy policy.");
    expect(toOwner.text).toContain(`/dashboard/${application.id}/settings`);
  });
});
