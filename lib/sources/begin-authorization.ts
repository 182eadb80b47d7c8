import * as oauth from "oauth4webapi";
import { encryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { parseCategoryList, type Category } from "@/lib/records";
import { findProvider } from "./providers";
import { discoverSmartServer } from "./smart-discovery";
import { scopeForCategories, scopeSyntaxFor } from "./smart-scopes";

/** The scope a sign-in asks for (smart-scopes.ts), here for the module index. */
export { scopeForCategories };

/** How long the patient has to sign in at the provider before the authorization must start over. */
export const AUTHORIZATION_MINUTES = 15;

/**
 * The categories a session's sign-in asks for: those the patient granted once the session has completed (a
 * simulation signs in after consenting), else those the application requested, which the patient chooses among
 * after signing in.
 */
async function sessionCategories(connectSessionId: string): Promise<Category[]> {
  const session = await db().connectSession.findUniqueOrThrow({ where: { id: connectSessionId }, select: { categories: true, grantedCategories: true } });
  return parseCategoryList(session.grantedCategories.length > 0 ? session.grantedCategories : session.categories);
}

export type BeginAuthorizationInput = {
  connectSessionId: string;
  providerId: string;
  /** Where the provider sends the patient back: the Connect flow's callback on this deployment's origin. */
  redirectUri: string;
  /**
   * Default: `scopeForCategories` of the session's categories, in SMART v2 granular syntax when the server's
   * configuration advertises `permission-v2`, else v1.
   */
  scope?: string;
  /**
   * The application the patient is sharing with, named to the sandbox's synthetic health systems (as
   * `on_behalf_of`) so their page can say who receives the record through Chartkey. Live providers get the standard
   * request only.
   */
  requesterName?: string;
  /** The patient's language, as OpenID's `ui_locales`, so the provider's sign-in page can match the Connect flow's. */
  uiLocales?: string;
};

export type BegunAuthorization = {
  /** Send the patient's browser here. */
  authorizationUrl: string;
  /** The state sent; the callback must return it (keep it with the patient's browser session to pass back). */
  state: string;
  expiresAt: Date;
};

/**
 * Starts a SMART standalone launch: discovers the provider's endpoints, makes a PKCE verifier and a state, keeps
 * both (the verifier sealed) in a SourceAuthorization row for the callback, and returns the authorization URL.
 */
export async function beginAuthorization(input: BeginAuthorizationInput): Promise<BegunAuthorization> {
  const provider = await findProvider(input.providerId);
  const server = await discoverSmartServer(provider);
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const expiresAt = new Date(Date.now() + AUTHORIZATION_MINUTES * 60_000);
  await db().sourceAuthorization.create({
    data: {
      id: newId("sauth_"),
      connectSessionId: input.connectSessionId,
      providerId: provider.id,
      state,
      codeVerifierEncrypted: encryptSecret(codeVerifier),
      redirectUri: input.redirectUri,
      expiresAt,
    },
  });
  const url = new URL(server.as.authorization_endpoint as string);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("scope", input.scope ?? scopeForCategories(await sessionCategories(input.connectSessionId), scopeSyntaxFor(server.capabilities)));
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  // SMART: the FHIR server the token is for, so a provider can refuse a request meant for another.
  url.searchParams.set("aud", server.fhirBaseUrl);
  if (input.uiLocales) url.searchParams.set("ui_locales", input.uiLocales);
  if (input.requesterName && provider.environment === "sandbox") url.searchParams.set("on_behalf_of", input.requesterName);
  return { authorizationUrl: url.toString(), state, expiresAt };
}
