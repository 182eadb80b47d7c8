import type { Profile } from "@/lib/api";
import { ApiError } from "@/lib/http";

/** RFC 6749 §5.2 token endpoint error codes (and the two §4.1.2.1 adds for the authorization endpoint). */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "access_denied"
  | "unsupported_response_type"
  | "server_error";

/**
 * An OAuth error as the token endpoint answers it. It is an ApiError so the route kit's pipeline maps and logs it
 * like any other; the OAuth profile writes it as `{ error, error_description }` instead of an envelope.
 * invalid_client is 401 (RFC 6749 §5.2), with a Basic challenge when the client tried Basic authentication.
 */
export class OAuthError extends ApiError {
  readonly oauthCode: OAuthErrorCode;

  constructor(oauthCode: OAuthErrorCode, description: string, options: { basicChallenge?: boolean } = {}) {
    const status = oauthCode === "invalid_client" ? 401 : 400;
    const headers: Record<string, string> = options.basicChallenge ? { "WWW-Authenticate": 'Basic realm="token"' } : {};
    super("invalid_request", description, { status, headers });
    this.oauthCode = oauthCode;
  }
}

/** The OAuth code nearest to an error the route kit raised itself (unknown provider, unsupported method, a fault). */
function oauthCodeOf(error: ApiError): OAuthErrorCode {
  if (error instanceof OAuthError) return error.oauthCode;
  return error.status >= 500 ? "server_error" : "invalid_request";
}

export function oauthErrorResponse(error: ApiError, _requestId: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { error: oauthCodeOf(error), error_description: error.message },
    { status: error.status, headers: { ...headers, ...error.headers, "Cache-Control": "no-store", Pragma: "no-cache" } },
  );
}

/**
 * The synthetic health systems' OAuth endpoints (SMART configuration, authorization, token): errors are OAuth's
 * JSON, never cached, and browsers may read them from any origin, as SMART apps running in a browser need.
 */
export const EHR_OAUTH_PROFILE: Profile = {
  name: "oauth",
  familyHeaders: {},
  defaultCache: "no-store",
  cors: true,
  idempotencyKeys: false,
  errorResponse: oauthErrorResponse,
};
