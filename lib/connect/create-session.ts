import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { parseCategoryList } from "@/lib/records";
import { linkToken, linkTokenHash } from "./link-tokens";
import { loadSession, presentSession } from "./present-session";
import { CONNECT_SESSION_MINUTES, type CreateSessionBody } from "./schemas";

/** POST /connect/sessions: a pending session whose link is valid for 60 minutes. */
export async function createConnectSession(key: KeyAuth, body: CreateSessionBody, origin: string, now = new Date()) {
  const categories = parseCategoryList(body.categories);
  const outside = categories.filter((category) => !key.application.categoryAllowlist.includes(category));
  if (outside.length > 0) {
    throw new ApiError("app_scope_exceeded", `Outside the application's category allowlist: ${outside.join(", ")}.`);
  }
  if (body.redirectUrl !== undefined) await assertRedirectAllowed(key, body.redirectUrl);

  const id = newId("cs_");
  await db().connectSession.create({
    data: {
      id,
      applicationId: key.application.id,
      environment: key.environment,
      categories,
      externalUserId: body.externalUserId ?? null,
      redirectUrl: body.redirectUrl ?? null,
      consentDays: body.consentDays ?? 365,
      connectTokenHash: linkTokenHash(linkToken("session", id)),
      conformanceRunId: key.conformanceRunId,
      expiresAt: new Date(now.getTime() + CONNECT_SESSION_MINUTES * 60_000),
      createdAt: now,
    },
  });
  const session = await loadSession({ id });
  if (!session) throw new Error(`session ${id} vanished after its creation`);
  return presentSession(session, origin, now);
}

/** Only registered redirect URLs (exact match); the sandbox also accepts any http://localhost or 127.0.0.1 URL. */
async function assertRedirectAllowed(key: KeyAuth, redirectUrl: string): Promise<void> {
  const url = new URL(redirectUrl);
  const local = url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1");
  if (key.environment === "sandbox" && local) return;
  const application = await db().application.findUnique({ where: { id: key.application.id }, select: { redirectUrls: true } });
  if (application?.redirectUrls.includes(redirectUrl)) return;
  throw new ApiError("invalid_request", "redirectUrl is not one of the application's registered redirect URLs.");
}
