import { z } from "zod";
import { defineOperation } from "@/lib/api";
import { db } from "@/lib/db";
import { authenticateTokenClient } from "./client-authentication";
import { EHR_OAUTH_PROFILE, OAuthError } from "./oauth-errors";
import { hashOpaqueToken } from "./opaque-tokens";
import { ehrProviderOr404 } from "./providers";
import { readForm } from "./token-endpoint";

export const revokeEhrTokenOperation = defineOperation({
  profile: EHR_OAUTH_PROFILE,
  method: "POST",
  path: "/{providerId}/revoke",
  operationId: "revokeEhrToken",
  tag: "Synthetic EHR",
  summary: "Token revocation endpoint",
  description:
    "OAuth 2.0 token revocation (RFC 7009; application/x-www-form-urlencoded): `token` and an optional " +
    "`token_type_hint`. The client authenticates as at the token endpoint. A refresh token issued to this client is " +
    "revoked, so a later refresh with it is invalid_grant. The answer is 200 with an empty body whether or not the " +
    "token was known (RFC 7009 §2.2), also for an access token: they are stateless here and expire within five minutes.",
  auth: "none",
  params: z.object({ providerId: z.string().describe("A synthetic health system (a fictional provider of the fixtures).").meta({ example: "riverbend-health" }) }),
  success: { status: 200, description: "The token is no longer valid (or never was).", schema: z.null() },
  errors: ["invalid_request"],
});

/** POST /ehr/{providerId}/revoke (RFC 7009 §2.1). */
export async function revokeEhrToken(providerId: string, request: Request, now = new Date()): Promise<Response> {
  ehrProviderOr404(providerId);
  const form = await readForm(request);
  const client = authenticateTokenClient(providerId, request, form);
  const token = form.get("token");
  if (!token) throw new OAuthError("invalid_request", "token is required.");
  // Another client's token, an unknown one, an access token: nothing to revoke, and the answer says no more
  // (RFC 7009 §2.2: invalid tokens do not cause an error).
  await db().ehrRefreshToken.updateMany({
    where: { tokenHash: hashOpaqueToken(token), providerId, clientId: client.id, revokedAt: null },
    data: { revokedAt: now },
  });
  return new Response(null, { status: 200, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
}
