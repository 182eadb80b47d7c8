import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth";
import { db } from "@/lib/db";
import { createApplication } from "./create-application";
import { createDeveloper } from "./create-developer";

export const DEVELOPMENT_EMAIL = "dev@chartkey.local";
export const DEVELOPMENT_APPLICATION_NAME = "Development App";

export type DevelopmentSeed = { email: string; password: string; applicationId: string; sandboxKey: string; liveKey: string };

/**
 * On a fresh database: the development account (its address is verified: no mail reaches chartkey.local), one sandbox application and a sandbox and a live key, created in
 * one transaction. Returns the secrets (shown once, stored only hashed) or null when the account already exists.
 */
export async function seedDevelopment(): Promise<DevelopmentSeed | null> {
  const existing = await db().developer.findUnique({ where: { email: DEVELOPMENT_EMAIL } });
  if (existing) return null;
  const password = randomBytes(12).toString("base64url");
  try {
    return await db().$transaction(async (tx) => {
      const developer = await createDeveloper({ email: DEVELOPMENT_EMAIL, name: "Development", password, emailVerifiedAt: new Date() }, tx);
      const application = await createApplication({ developerId: developer.id, name: DEVELOPMENT_APPLICATION_NAME }, tx);
      const sandbox = await createApiKey({ applicationId: application.id, environment: "sandbox" }, tx);
      const live = await createApiKey({ applicationId: application.id, environment: "live" }, tx);
      return { email: DEVELOPMENT_EMAIL, password, applicationId: application.id, sandboxKey: sandbox.key, liveKey: live.key };
    });
  } catch (error) {
    // Another process seeding at the same moment won the unique email; its output has the secrets.
    if ((error as { code?: string }).code === "P2002") return null;
    throw error;
  }
}

/** A new sandbox key for the development application (`npm run dev:key`). */
export async function newDevelopmentSandboxKey(): Promise<string> {
  const application = await db().application.findFirst({
    where: { developer: { email: DEVELOPMENT_EMAIL }, name: DEVELOPMENT_APPLICATION_NAME },
    orderBy: { createdAt: "asc" },
  });
  if (!application) throw new Error("No development application: run `npm start` once to create it.");
  return (await createApiKey({ applicationId: application.id, environment: "sandbox", name: "dev:key" })).key;
}
