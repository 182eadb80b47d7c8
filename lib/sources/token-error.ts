import * as oauth from "oauth4webapi";
import { SourceError } from "./source-error";

/** A token endpoint failure as a SourceError, naming the provider by its name; the provider's own words, never the code or tokens. */
export function tokenError(providerName: string, error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    const code = error.error === "invalid_grant" ? "reauthorization_required" : "invalid_response";
    return new SourceError(code, `${providerName}'s token endpoint answered ${error.status} ${error.error}${error.error_description ? `: ${error.error_description}` : ""}.`, {
      status: error.status,
    });
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return new SourceError("invalid_response", `${providerName}'s token endpoint refused our client (${error.status}).`, { status: error.status });
  }
  // Not `cause`: oauth4webapi's errors can hold the response, and so the tokens, which must never reach a log.
  const detail = error instanceof Error ? `: ${error.message}` : "";
  return new SourceError("invalid_response", `${providerName}'s token response is not valid OAuth${detail}.`);
}
