import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { secondFactorStanding } from "@/lib/account-security";

const saved = { ...process.env };
afterEach(() => {
  process.env.CHARTKEY_OPERATOR_EMAILS = saved.CHARTKEY_OPERATOR_EMAILS;
  process.env.CHARTKEY_REQUIRE_SECOND_FACTOR = saved.CHARTKEY_REQUIRE_SECOND_FACTOR;
  if (saved.CHARTKEY_OPERATOR_EMAILS === undefined) delete process.env.CHARTKEY_OPERATOR_EMAILS;
  if (saved.CHARTKEY_REQUIRE_SECOND_FACTOR === undefined) delete process.env.CHARTKEY_REQUIRE_SECOND_FACTOR;
});

describe("who must have a second factor", () => {
  it("members of an application in production (enabled or requested) and operators; the deployment setting adds everyone", async () => {
    const sandboxOnly = await createTestDeveloper();
    process.env.CHARTKEY_OPERATOR_EMAILS = "someone-else@example.test";
    expect(await secondFactorStanding(sandboxOnly.id)).toEqual({ enrolled: false, reason: null });

    const { application, developer } = await createTestApplication();
    expect((await secondFactorStanding(developer.id)).reason).toBeNull();
    await db().productionRequest.create({
      data: { id: `preq_${application.id}`, applicationId: application.id, requestedById: developer.id, description: "Going live", redirectUrls: [], contactEmail: "ops@example.test" },
    });
    expect((await secondFactorStanding(developer.id)).reason).toBe("production");
    await db().productionRequest.deleteMany({ where: { applicationId: application.id } });
    await db().application.update({ where: { id: application.id }, data: { productionEnabled: true } });
    expect((await secondFactorStanding(developer.id)).reason).toBe("production");

    process.env.CHARTKEY_OPERATOR_EMAILS = sandboxOnly.email;
    expect((await secondFactorStanding(sandboxOnly.id)).reason).toBe("operator");
    process.env.CHARTKEY_OPERATOR_EMAILS = "someone-else@example.test";
    process.env.CHARTKEY_REQUIRE_SECOND_FACTOR = "all";
    expect((await secondFactorStanding(sandboxOnly.id)).reason).toBe("deployment");
  });
});
