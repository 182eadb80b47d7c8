import * as oauth from "oauth4webapi";
import { db } from "@/lib/db";
import { tokenError } from "./complete-authorization";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import { oauthClient, tokenRequestOptions } from "./oauth-client";
import type { ProviderRow } from "./providers";
import { discoverSmartServer } from "./smart-discovery";
import { SourceError } from "./source-error";
import { openSourceTokens, sealSourceTokens, tokensFromResponse, type SmartTokens } from "./source-tokens";

/**
 * Trades the source's refresh token for new tokens and stores them. Providers rotate refresh tokens, so two
 * processes refreshing one source at once would have one refused; the store is a compare-and-set on the refresh
 * token that was used, and the loser of a race adopts the winner's tokens instead of failing.
 */
export async function refreshSourceTokens(sourceId: string, provider: ProviderRow, policy: HttpPolicy = DEFAULT_HTTP_POLICY): Promise<SmartTokens> {
  const source = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
  const current = openSourceTokens(source);
  if (!current.refreshToken) throw new SourceError("reauthorization_required", `Source ${sourceId} has no refresh token; the patient must sign in again.`);
  const server = await discoverSmartServer(provider, policy);
  const { client, clientAuth } = oauthClient(provider);

  let tokens: SmartTokens;
  try {
    const response = await oauth.refreshTokenGrantRequest(server.as, client, clientAuth, current.refreshToken, tokenRequestOptions(provider, policy));
    tokens = tokensFromResponse(await oauth.processRefreshTokenResponse(server.as, client, response), current);
  } catch (error) {
    const failure = tokenError(provider.id, error);
    if (failure.code === "reauthorization_required") {
      const latest = await db().source.findUniqueOrThrow({ where: { id: sourceId } });
      if (latest.refreshTokenEncrypted !== source.refreshTokenEncrypted) return openSourceTokens(latest);
    }
    throw failure;
  }
  const stored = await db().source.updateMany({
    where: { id: sourceId, refreshTokenEncrypted: source.refreshTokenEncrypted },
    data: sealSourceTokens(tokens),
  });
  if (stored.count === 0) return openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: sourceId } }));
  return tokens;
}
