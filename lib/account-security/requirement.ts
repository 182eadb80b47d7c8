import { db } from "@/lib/db";
import { findOperator } from "@/lib/operators";
import { hasSecondFactor } from "./factors";
import { enrolmentReason, type EnrolmentReason } from "./rules";

/**
 * The deployment setting `CHARTKEY_REQUIRE_SECOND_FACTOR`: `all` requires a second factor of every account; unset
 * (or anything else), only of operators and of members of applications with production enabled or requested.
 */
export function secondFactorRequiredForAll(): boolean {
  return (process.env.CHARTKEY_REQUIRE_SECOND_FACTOR ?? "").trim().toLowerCase() === "all";
}

/** Whether the account is a member of an application with production enabled, approved or requested. */
async function productionMember(developerId: string): Promise<boolean> {
  const application = await db().application.findFirst({
    where: {
      members: { some: { developerId } },
      OR: [{ productionEnabled: true }, { status: { not: "sandbox" } }, { productionRequests: { some: { status: { in: ["pending", "approved"] } } } }],
    },
    select: { id: true },
  });
  return application !== null;
}

/** The account's second-factor standing: whether it has one, and why it must (null: it need not). */
export async function secondFactorStanding(developerId: string): Promise<{ enrolled: boolean; reason: EnrolmentReason }> {
  const [enrolled, operator, production] = await Promise.all([hasSecondFactor(developerId), findOperator(developerId), productionMember(developerId)]);
  return { enrolled, reason: enrolmentReason({ requiredForAll: secondFactorRequiredForAll(), operator: operator !== null, productionMember: production }) };
}
