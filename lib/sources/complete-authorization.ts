import * as oauth from "oauth4webapi";
import { decryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import { oauthClient, tokenRequestOptions } from "./oauth-client";
import { findProvider } from "./providers";
import { discoverSmartServer } from "./smart-discovery";
import { SourceError } from "./source-error";
import { tokensFromResponse, type SmartTokens } from "./source-tokens";
import { tokenError } from "./token-error";

export type CompleteAuthorizationInput = {
  /**
   * The state this browser session is expecting: the one `beginAuthorization` returned, kept with the session.
   * The callback's own state must equal it, so a callback planted from another session is refused.
   */
  state: string;
  /** The full URL the provider redirected the browser to (with code and state, or error and state). */
  callbackUrl: string;
  policy?: HttpPolicy;
};

export type CompletedAuthorization = { connectSessionId: string; providerId: string; tokens: SmartTokens };

/** Spends the authorization: single use, and only before it expires. */
async function claimAuthorization(state: string) {
  const now = new Date();
  const claimed = await db().sourceAuthorization.updateMany({ where: { state, completedAt: null, expiresAt: { gt: now } }, data: { completedAt: now } });
  if (claimed.count === 0) throw new SourceError("invalid_state", "The authorization is unknown, was already completed, or expired; start again.");
  return db().sourceAuthorization.findUniqueOrThrow({ where: { state } });
}

/**
 * Finishes the launch at the callback: checks the callback's state against the expected one and spends the
 * authorization, turns a provider's error (the patient denied) into authorization_denied, then exchanges the code
 * with the stored PKCE verifier. Returns the tokens and the patient; the caller stores them on the Source
 * (`storeSourceTokens` or `sealSourceTokens`).
 */
export async function completeAuthorization(input: CompleteAuthorizationInput): Promise<CompletedAuthorization> {
  const policy = input.policy ?? DEFAULT_HTTP_POLICY;
  const callback = new URL(input.callbackUrl);
  // Checked before the row is spent, so a forged callback cannot burn the patient's real authorization.
  if (callback.searchParams.get("state") !== input.state) throw new SourceError("invalid_state", "The callback's state is not the one this session expects.");
  const authorization = await claimAuthorization(input.state);
  const provider = await findProvider(authorization.providerId);
  const server = await discoverSmartServer(provider, policy);
  const { client, clientAuth } = oauthClient(provider);

  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(server.as, client, callback, authorization.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const code = error.error === "access_denied" ? "authorization_denied" : "invalid_response";
      throw new SourceError(code, `${provider.name} answered ${error.error}${error.error_description ? `: ${error.error_description}` : ""}.`);
    }
    // Not `cause`: it holds the callback's parameters, the code among them.
    const detail = error instanceof Error ? `: ${error.message}` : "";
    throw new SourceError("invalid_response", `${provider.name}'s callback is not a valid authorization response${detail}.`);
  }

  const codeVerifier = decryptSecret(authorization.codeVerifierEncrypted);
  try {
    const response = await oauth.authorizationCodeGrantRequest(server.as, client, clientAuth, parameters, authorization.redirectUri, codeVerifier, tokenRequestOptions(provider, policy));
    const tokens = tokensFromResponse(await oauth.processAuthorizationCodeResponse(server.as, client, response), null);
    return { connectSessionId: authorization.connectSessionId, providerId: provider.id, tokens };
  } catch (error) {
    throw tokenError(provider.name, error);
  }
}
