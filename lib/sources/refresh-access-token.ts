import * as oauth from "oauth4webapi";
import { db } from "@/lib/db";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import { oauthClient, tokenRequestOptions } from "./oauth-client";
import type { ProviderRow } from "./providers";
import { withSourceRefreshLock } from "./refresh-lock";
import { discoverSmartServer } from "./smart-discovery";
import { SourceError } from "./source-error";
import { openSourceTokens, sealSourceTokens, tokensFromResponse, type SmartTokens } from "./source-tokens";
import { tokenError } from "./token-error";

/** A token this close to expiry is refreshed rather than used. */
export const REFRESH_MARGIN_MS = 30_000;

/**
 * Trades the source's refresh token for new tokens and stores them (sealed), one process at a time per source.
 * `staleAccessToken` is the token the caller found expiring or refused: if, once the lock is held, the row holds
 * another one that is still good, another process refreshed meanwhile and its tokens are used as they are.
 */
export async function refreshSourceTokens(sourceId: string, provider: ProviderRow, policy: HttpPolicy = DEFAULT_HTTP_POLICY, staleAccessToken?: string): Promise<SmartTokens> {
  return withSourceRefreshLock(sourceId, async () => {
    const current = openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: sourceId } }));
    const refreshedMeanwhile = staleAccessToken !== undefined && current.accessToken !== staleAccessToken;
    if (refreshedMeanwhile && current.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) return current;
    if (!current.refreshToken) throw new SourceError("reauthorization_required", `Source ${sourceId} has no refresh token; the patient must sign in again.`);

    const server = await discoverSmartServer(provider, policy);
    const { client, clientAuth } = oauthClient(provider);
    let tokens: SmartTokens;
    try {
      const response = await oauth.refreshTokenGrantRequest(server.as, client, clientAuth, current.refreshToken, tokenRequestOptions(provider, policy));
      tokens = tokensFromResponse(await oauth.processRefreshTokenResponse(server.as, client, response), current);
    } catch (error) {
      throw tokenError(provider.id, error);
    }
    await db().source.update({ where: { id: sourceId }, data: sealSourceTokens(tokens) });
    return tokens;
  });
}
