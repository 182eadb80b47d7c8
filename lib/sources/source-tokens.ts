import type * as oauth from "oauth4webapi";
import { decryptSecret, encryptSecret } from "@/lib/auth";
import { db } from "@/lib/db";
import { SourceError } from "./source-error";

/**
 * A provider's tokens for one patient, in memory only: at rest they are sealed with the secret box
 * (`sealSourceTokens`), and no log line or error message of this domain carries them.
 */
export type SmartTokens = {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
  /**
   * What the tokens may read: the provider's granted scope, narrowed to the patient's consent (`narrowSourceScope`);
   * "" when the provider did not say.
   */
  scope: string;
  /** The provider's FHIR Patient id (SMART's `patient` launch context). */
  patientId: string;
};

/** What the Source row stores of the tokens. */
export type SealedSourceTokens = {
  accessTokenEncrypted: string;
  refreshTokenEncrypted: string | null;
  tokenExpiresAt: Date;
  tokenScope: string | null;
  fhirPatientId: string;
};

/** Without expires_in, a token is assumed good for five minutes, so it is refreshed early rather than late. */
const ASSUMED_LIFETIME_SECONDS = 300;

export function tokensFromResponse(response: oauth.TokenEndpointResponse, previous: Pick<SmartTokens, "refreshToken" | "patientId" | "scope"> | null, now = Date.now()): SmartTokens {
  const patient = typeof response.patient === "string" ? response.patient : previous?.patientId;
  if (!patient) throw new SourceError("invalid_response", "The token response names no patient (launch/patient).");
  return {
    accessToken: response.access_token,
    // A refresh response without a new refresh token leaves the old one in force (RFC 6749 §6).
    refreshToken: response.refresh_token ?? previous?.refreshToken ?? null,
    expiresAt: new Date(now + (response.expires_in ?? ASSUMED_LIFETIME_SECONDS) * 1000),
    scope: response.scope ?? previous?.scope ?? "",
    patientId: patient,
  };
}

/** The tokens sealed for a Source row (`db().source.update({ data: sealSourceTokens(tokens) })`). */
export function sealSourceTokens(tokens: SmartTokens): SealedSourceTokens {
  return {
    accessTokenEncrypted: encryptSecret(tokens.accessToken),
    refreshTokenEncrypted: tokens.refreshToken === null ? null : encryptSecret(tokens.refreshToken),
    tokenExpiresAt: tokens.expiresAt,
    tokenScope: tokens.scope === "" ? null : tokens.scope,
    fhirPatientId: tokens.patientId,
  };
}

/** Stores the tokens (and the patient they read) on the source. */
export async function storeSourceTokens(sourceId: string, tokens: SmartTokens): Promise<void> {
  await db().source.update({ where: { id: sourceId }, data: sealSourceTokens(tokens) });
}

type SealedColumns = {
  accessTokenEncrypted: string | null;
  refreshTokenEncrypted: string | null;
  tokenExpiresAt: Date | null;
  tokenScope: string | null;
  fhirPatientId: string | null;
};

/** The source's tokens, unsealed; not_connected if it has none. */
export function openSourceTokens(source: SealedColumns & { id: string }): SmartTokens {
  if (!source.accessTokenEncrypted || !source.fhirPatientId) throw new SourceError("not_connected", "The source has no access token; the patient must sign in again.");
  return {
    accessToken: decryptSecret(source.accessTokenEncrypted),
    refreshToken: source.refreshTokenEncrypted ? decryptSecret(source.refreshTokenEncrypted) : null,
    expiresAt: source.tokenExpiresAt ?? new Date(0),
    scope: source.tokenScope ?? "",
    patientId: source.fhirPatientId,
  };
}
