import { randomBytes } from "node:crypto";
import { encryptSecret } from "@/lib/auth";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { CATEGORIES } from "@/lib/records";

export type NewApplication = {
  developerId: string;
  name: string;
  status?: "sandbox" | "active" | "suspended";
  productionEnabled?: boolean;
  categoryAllowlist?: string[];
  syncMode?: "one_time" | "continuous";
  webhookUrl?: string | null;
};

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * Creates the application and makes its creator an owner (lib/team). Pass a transaction to include it in a
 * larger one; without one, both rows are written in a transaction of their own.
 */
export function createApplication(input: NewApplication, tx?: Tx) {
  return tx ? insertApplication(input, tx) : db().$transaction((inner) => insertApplication(input, inner));
}

async function insertApplication(input: NewApplication, tx: Tx) {
  const application = await tx.application.create({
    data: {
      id: newId("app_"),
      developerId: input.developerId,
      name: input.name,
      status: input.status ?? "sandbox",
      productionEnabled: input.productionEnabled ?? false,
      categoryAllowlist: input.categoryAllowlist ?? [...CATEGORIES],
      syncMode: input.syncMode ?? "one_time",
      webhookUrl: input.webhookUrl ?? null,
      signingSecretEncrypted: encryptSecret(newSigningSecret()),
    },
  });
  await tx.applicationMember.create({ data: { applicationId: application.id, developerId: input.developerId, role: "owner" } });
  return application;
}
