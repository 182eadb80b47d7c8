import { randomBytes } from "node:crypto";
import { createApplication, type NewApplication } from "@/lib/applications";
import { createApiKey } from "@/lib/auth";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";

/**
 * A developer with one application and a sandbox and a live key, written through the same domain functions the
 * product uses. The password hash is a placeholder: tests that sign in create their developer with createDeveloper.
 */
export async function createTestApplication(overrides: Partial<Omit<NewApplication, "developerId">> = {}) {
  const developer = await db().developer.create({
    data: { id: newId("dev_"), email: `dev-${randomBytes(6).toString("hex")}@example.test`, name: "Test Developer", passwordHash: "unused" },
  });
  const application = await createApplication({ developerId: developer.id, name: "Test App", ...overrides });
  const sandbox = await createApiKey({ applicationId: application.id, environment: "sandbox" });
  const live = await createApiKey({ applicationId: application.id, environment: "live" });
  return { developer, application, sandboxKey: sandbox.key, sandboxKeyId: sandbox.id, liveKey: live.key, liveKeyId: live.id };
}

export function bearer(key: string): HeadersInit {
  return { Authorization: `Bearer ${key}` };
}

/** Next.js passes route params as a promise. */
export function routeContext(params: Record<string, string | string[]> = {}) {
  return { params: Promise.resolve(params) };
}

/** A patient and its subject for one application and environment, as a completed Connect session leaves them. */
export async function createTestSubject(applicationId: string, environment: "sandbox" | "live" = "sandbox") {
  const patient = await db().patient.create({ data: { id: newId("pat_"), environment } });
  return db().subject.create({ data: { id: newId("u_"), applicationId, environment, patientId: patient.id } });
}

/** A developer account with a placeholder password hash (sign-in tests use signUp instead). */
export async function createTestDeveloper(email = `dev-${randomBytes(6).toString("hex")}@example.test`) {
  return db().developer.create({ data: { id: newId("dev_"), email: email.toLowerCase(), name: "Test Developer", passwordHash: "unused" } });
}

/**
 * An agent credential row for a receipt, as issuing one leaves it (a random token hash stands in for the token no
 * test presents): for tests of what refers to a credential, not of issuing or presenting one (lib/agents).
 */
export async function createTestAgentCredential(input: {
  receipt: { id: string; applicationId: string; subjectId: string };
  parentKeyId: string;
  purpose?: string;
  categories?: string[];
}) {
  return db().agentCredential.create({
    data: {
      id: newId("cred_"),
      receiptId: input.receipt.id,
      applicationId: input.receipt.applicationId,
      environment: "sandbox",
      parentKeyId: input.parentKeyId,
      subjectId: input.receipt.subjectId,
      categories: input.categories ?? ["labs"],
      operations: ["get_category_records"],
      purpose: input.purpose ?? "test",
      tokenHash: randomBytes(16).toString("hex"),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
}
