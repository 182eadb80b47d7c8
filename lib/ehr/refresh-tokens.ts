import { db, Prisma } from "@/lib/db";
import { OAuthError } from "./oauth-errors";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-tokens";

export type RefreshGrant = { providerId: string; patientKey: string; clientId: string; scope: string };

/** A new refresh token for the grant; only its hash is stored. */
export async function issueRefreshToken(grant: RefreshGrant, client: Prisma.TransactionClient = db()): Promise<string> {
  const token = newOpaqueToken();
  await client.ehrRefreshToken.create({ data: { tokenHash: hashOpaqueToken(token), ...grant } });
  return token;
}

/**
 * Rotation (OAuth 2.0 Security BCP §4.14.2): the presented token is revoked and a new one with the same grant
 * issued, in one transaction. The revocation is a conditional update, so of two requests presenting the same
 * token only one gets a successor; the other, and any later reuse, is invalid_grant. `check` may refuse the request
 * once the grant is known (a scope beyond it); refusing rolls the revocation back, so the client keeps its token.
 */
export async function rotateRefreshToken(
  providerId: string,
  clientId: string,
  presented: string,
  check: (grant: RefreshGrant) => void = () => {},
  now = new Date(),
): Promise<{ grant: RefreshGrant; token: string }> {
  return db().$transaction(async (tx) => {
    let row;
    try {
      row = await tx.ehrRefreshToken.update({
        where: { tokenHash: hashOpaqueToken(presented), revokedAt: null, providerId },
        data: { revokedAt: now },
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025") {
        throw new OAuthError("invalid_grant", "The refresh token is unknown, was already used, or was revoked.");
      }
      throw error;
    }
    if (row.clientId !== clientId) throw new OAuthError("invalid_grant", "The refresh token was issued to another client.");
    const grant = { providerId: row.providerId, patientKey: row.patientKey, clientId: row.clientId, scope: row.scope };
    check(grant);
    return { grant, token: await issueRefreshToken(grant, tx) };
  });
}
