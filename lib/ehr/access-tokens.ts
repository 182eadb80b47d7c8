import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { acceptedKeys, derivedKey } from "@/lib/config";

/**
 * Access tokens are stateless: `ehr1.{claims}.{signature}`, the claims base64url JSON and the signature an
 * HMAC-SHA256 under a key derived for this purpose alone. Nothing is stored, so a token cannot be revoked before
 * it expires; the short lifetime bounds that, and makes clients exercise the refresh grant.
 */
export const ACCESS_TOKEN_SECONDS = 300;

const PREFIX = "ehr1";

const claimsSchema = z.object({
  /** The health system that issued it; a token is good only at its own FHIR API. */
  providerId: z.string(),
  patientKey: z.string(),
  clientId: z.string(),
  scope: z.string(),
  /** Expiry, seconds since the epoch. */
  exp: z.number().int(),
  /** Unique per token, so two tokens issued in the same second for the same grant still differ. */
  jti: z.string(),
});

export type AccessClaims = z.infer<typeof claimsSchema>;

function sign(payload: string, key = derivedKey("ehr-access-token")): Buffer {
  return createHmac("sha256", key).update(`${PREFIX}.${payload}`).digest();
}

export function issueAccessToken(claims: Omit<AccessClaims, "exp" | "jti">, now = Date.now()): { token: string; expiresIn: number } {
  const exp = Math.floor(now / 1000) + ACCESS_TOKEN_SECONDS;
  const payload = Buffer.from(JSON.stringify({ ...claims, exp, jti: randomBytes(12).toString("base64url") })).toString("base64url");
  return { token: `${PREFIX}.${payload}.${sign(payload).toString("base64url")}`, expiresIn: ACCESS_TOKEN_SECONDS };
}

export type AccessTokenCheck = { valid: true; claims: AccessClaims } | { valid: false; reason: string };

/** The token's claims if its signature holds and it has not expired; otherwise why not (said to the client). */
export function verifyAccessToken(token: string, now = Date.now()): AccessTokenCheck {
  const [prefix, payload, signature, ...rest] = token.split(".");
  if (prefix !== PREFIX || !payload || !signature || rest.length > 0) return { valid: false, reason: "The access token is malformed." };
  const given = Buffer.from(signature, "base64url");
  // Tokens issued before a CHARTKEY_SECRET rotation verify until they expire (while the previous secret is set).
  const verified = acceptedKeys("ehr-access-token").some((key) => {
    const expected = sign(payload, key);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!verified) {
    return { valid: false, reason: "The access token's signature does not verify." };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { valid: false, reason: "The access token is malformed." };
  }
  const claims = claimsSchema.safeParse(parsed);
  if (!claims.success) return { valid: false, reason: "The access token is malformed." };
  if (claims.data.exp * 1000 <= now) return { valid: false, reason: "The access token has expired." };
  return { valid: true, claims: claims.data };
}
