import { createHash } from "node:crypto";
import { db, Prisma } from "@/lib/db";
import type { AuthorizationRequest } from "./authorization-request";
import { OAuthError } from "./oauth-errors";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-tokens";
import type { EhrPatient } from "./patients";

/** RFC 6749 §4.1.2 recommends at most ten minutes; a code is exchanged by a server a moment after the redirect. */
export const AUTHORIZATION_CODE_SECONDS = 60;

/** Issues a single-use code for the patient the request was allowed for; only its hash is stored. */
export async function issueAuthorizationCode(request: AuthorizationRequest, patient: EhrPatient, now = new Date()): Promise<string> {
  const code = newOpaqueToken();
  await db().ehrAuthorizationCode.create({
    data: {
      codeHash: hashOpaqueToken(code),
      providerId: request.provider.id,
      patientKey: patient.patientKey,
      clientId: request.client.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scope: request.scope,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_SECONDS * 1000),
    },
  });
  return code;
}

export type CodeExchange = { providerId: string; clientId: string; code: string; redirectUri: string; codeVerifier: string };
export type RedeemedCode = { patientKey: string; scope: string };

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * Redeems a code: marks it used first, in one statement, so two concurrent exchanges cannot both succeed and a
 * failed attempt (wrong verifier, wrong redirect URI) spends the code, leaving nothing to guess against. Then
 * checks it was issued here, to this client, for this redirect URI, is unexpired and that the verifier hashes to
 * its challenge. Every failure is invalid_grant, as RFC 6749 §5.2 says.
 */
export async function redeemAuthorizationCode(exchange: CodeExchange, now = new Date()): Promise<RedeemedCode> {
  let row;
  try {
    row = await db().ehrAuthorizationCode.update({
      where: { codeHash: hashOpaqueToken(exchange.code), usedAt: null },
      data: { usedAt: now },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025") {
      throw new OAuthError("invalid_grant", "The authorization code is unknown or was already used.");
    }
    throw error;
  }
  if (row.providerId !== exchange.providerId) throw new OAuthError("invalid_grant", "The authorization code was not issued by this server.");
  if (row.expiresAt <= now) throw new OAuthError("invalid_grant", "The authorization code has expired.");
  if (row.clientId !== exchange.clientId) throw new OAuthError("invalid_grant", "The authorization code was issued to another client.");
  if (row.redirectUri !== exchange.redirectUri) {
    throw new OAuthError("invalid_grant", "redirect_uri does not match the one the code was issued for.");
  }
  if (!CODE_VERIFIER.test(exchange.codeVerifier) || s256(exchange.codeVerifier) !== row.codeChallenge) {
    throw new OAuthError("invalid_grant", "The code_verifier does not match the code_challenge (PKCE).");
  }
  return { patientKey: row.patientKey, scope: row.scope };
}

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}
