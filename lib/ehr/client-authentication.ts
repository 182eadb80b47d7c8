import { findEhrClient, isClientSecretValid, type EhrClient } from "./clients";
import { OAuthError } from "./oauth-errors";

type PresentedCredentials = { clientId: string; secret: string | null; method: "basic" | "post" | "none" };

/** RFC 6749 §2.3.1: Basic credentials are each form-urlencoded before base64. */
function basicCredentials(header: string): { clientId: string; secret: string } {
  const encoded = header.slice("basic ".length).trim();
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new OAuthError("invalid_client", "The Basic credentials are malformed.", { basicChallenge: true });
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")) };
  } catch {
    throw new OAuthError("invalid_client", "The Basic credentials are malformed.", { basicChallenge: true });
  }
}

function presentedCredentials(request: Request, form: URLSearchParams): PresentedCredentials {
  const authorization = request.headers.get("authorization");
  const basic = authorization?.toLowerCase().startsWith("basic ") ? basicCredentials(authorization) : null;
  const bodySecret = form.get("client_secret");
  if (basic && bodySecret !== null) throw new OAuthError("invalid_request", "Use one client authentication method, not Basic and client_secret both.");
  if (basic) {
    const bodyId = form.get("client_id");
    if (bodyId !== null && bodyId !== basic.clientId) throw new OAuthError("invalid_request", "client_id differs from the Basic credentials.");
    return { ...basic, method: "basic" };
  }
  const clientId = form.get("client_id");
  if (!clientId) throw new OAuthError("invalid_client", "The client did not identify itself (client_id or Basic credentials).");
  return { clientId, secret: bodySecret, method: bodySecret === null ? "none" : "post" };
}

/**
 * The token endpoint's client: the confidential sandbox client must authenticate with its secret
 * (client_secret_basic or client_secret_post); the public one sends only its client_id and relies on PKCE.
 */
export function authenticateTokenClient(providerId: string, request: Request, form: URLSearchParams): EhrClient {
  const credentials = presentedCredentials(request, form);
  const challenge = { basicChallenge: credentials.method === "basic" };
  const client = findEhrClient(credentials.clientId);
  if (!client) throw new OAuthError("invalid_client", `Unknown client ${credentials.clientId}.`, challenge);
  if (!client.confidential) {
    if (credentials.secret !== null) throw new OAuthError("invalid_client", `${client.id} is a public client and has no secret.`, challenge);
    return client;
  }
  if (credentials.secret === null) throw new OAuthError("invalid_client", `${client.id} must authenticate with its client secret.`, challenge);
  if (!isClientSecretValid(providerId, credentials.secret)) throw new OAuthError("invalid_client", "The client secret is wrong.", challenge);
  return client;
}
