"use server";

import { revalidatePath } from "next/cache";
import { createKeyFor, revokeKeyFor } from "@/lib/applications";
import { actionFailure, applicationAccess } from "@/lib/dashboard";

export type CreatedKey = { ok: true; key: string; displayPrefix: string; environment: "sandbox" | "live" } | { ok: false; error: string };

export async function createKeyAction(applicationId: string, input: { environment: "sandbox" | "live"; name: string }): Promise<CreatedKey> {
  const access = await applicationAccess(applicationId);
  if (!access) return { ok: false, error: "Application not found." };
  try {
    const created = await createKeyFor(access, input);
    revalidatePath(`/dashboard/${applicationId}/keys`);
    return { ok: true, key: created.key, displayPrefix: created.displayPrefix, environment: input.environment };
  } catch (error) {
    return actionFailure(error);
  }
}

export async function revokeKeyAction(applicationId: string, keyId: string) {
  const access = await applicationAccess(applicationId);
  if (!access) return { ok: false as const, error: "Application not found." };
  try {
    const key = await revokeKeyFor(access, keyId);
    revalidatePath(`/dashboard/${applicationId}/keys`);
    return { ok: true as const, message: `Key “${key.name}” revoked. Requests with it are refused from now on.` };
  } catch (error) {
    return actionFailure(error);
  }
}
