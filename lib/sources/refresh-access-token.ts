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
 * The refresh grant for the source's current tokens, asking for `scope` (RFC 6749 §6: no more than the grant), and
 * the new tokens stored sealed. The caller holds the source's refresh lock.
 */
export async function exchangeRefreshToken(sourceId: string, provider: ProviderRow, policy: HttpPolicy, current: SmartTokens, scope: string): Promise<SmartTokens> {
  if (!current.refreshToken) throw new SourceError("reauthorization_required", `${provider.name} gave this source no refresh token; the patient must sign in again.`);
  const server = await discoverSmartServer(provider, policy);
  const { client, clientAuth } = oauthClient(provider);
  let tokens: SmartTokens;
  try {
    const options = { ...tokenRequestOptions(provider, policy), ...(scope ? { additionalParameters: { scope } } : {}) };
    const response = await oauth.refreshTokenGrantRequest(server.as, client, clientAuth, current.refreshToken, options);
    // A response without `scope` granted the scope asked for (RFC 6749 §5.1).
    tokens = tokensFromResponse(await oauth.processRefreshTokenResponse(server.as, client, response), { ...current, scope });
  } catch (error) {
    throw tokenError(provider.name, error);
  }
  await db().source.update({ where: { id: sourceId }, data: sealSourceTokens(tokens) });
  return tokens;
}

/**
 * Trades the source's refresh token for new tokens and stores them (sealed), one process at a time per source.
 * `staleAccessToken` is the token the caller found expiring or refused: if, once the lock is held, the row holds
 * another one that is still good, another process refreshed meanwhile and its tokens are used as they are. The
 * refresh asks for the stored scope: a refresh token keeps the whole grant (RFC 6749 §6), so without it a token
 * narrowed to the patient's consent would come back as wide as the sign-in.
 */
export async function refreshSourceTokens(sourceId: string, provider: ProviderRow, policy: HttpPolicy = DEFAULT_HTTP_POLICY, staleAccessToken?: string): Promise<SmartTokens> {
  return withSourceRefreshLock(sourceId, async () => {
    const current = openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: sourceId } }));
    const refreshedMeanwhile = staleAccessToken !== undefined && current.accessToken !== staleAccessToken;
    if (refreshedMeanwhile && current.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) return current;
    return exchangeRefreshToken(sourceId, provider, policy, current, current.scope);
  });
}
