import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { availableProviders } from "./providers";

/** Saves the health systems the patient picked, in the order picked, while the session is pending. */
export async function chooseProviders(sessionId: string, environment: "sandbox" | "live", providerIds: readonly string[]): Promise<void> {
  const known = new Set((await availableProviders(environment)).map((provider) => provider.id));
  const chosen = [...new Set(providerIds)].filter((id) => known.has(id));
  if (chosen.length === 0) throw new ApiError("invalid_request", "Choose at least one health system.");
  const { count } = await db().connectSession.updateMany({ where: { id: sessionId, status: "pending" }, data: { providerIds: chosen } });
  if (count === 0) throw new ApiError("session_completed", "This session has already ended.");
}
