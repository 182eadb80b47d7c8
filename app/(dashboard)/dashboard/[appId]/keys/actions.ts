"use server";

import { createKeyFor, revokeKeyFor, type CreateApiKeyInput } from "@/lib/applications";
import { applicationAction } from "@/lib/dashboard";

export type CreatedKey = { ok: true; key: string; displayPrefix: string; environment: "sandbox" | "live" } | { ok: false; error: string };

export async function createKeyAction(applicationId: string, input: CreateApiKeyInput): Promise<CreatedKey> {
  let created: { key: string; displayPrefix: string } | undefined;
  const result = await applicationAction(applicationId, async (access) => (created = await createKeyFor(access, input)), "Key created.");
  return result.ok && created ? { ok: true, key: created.key, displayPrefix: created.displayPrefix, environment: input.environment } : { ok: false, error: result.ok ? "Key not created." : result.error };
}

export async function revokeKeyAction(applicationId: string, keyId: string) {
  return applicationAction(applicationId, (access) => revokeKeyFor(access, keyId), (key) => `Key “${(key as { name: string }).name}” revoked. Requests with it are refused from now on.`);
}
