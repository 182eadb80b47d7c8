import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { AccountError, claimPasswordCheck, TooManyAttemptsError, verifySignIn } from "@/lib/accounts";
import { hasSecondFactor, notifySecurity, startDashboardSession, verifyPasskey } from "@/lib/account-security";
import { recordAudit, withAuditAddress } from "@/lib/audit";
import { db } from "@/lib/db";
import { relyingPartyOf } from "./relying-party";
import { requestClientAddress } from "@/lib/http";
import { log } from "@/lib/log";
import { SIGN_IN_PATH } from "@/lib/session";

/** Twelve hours: a working day, after which the developer signs in again. */
const SESSION_SECONDS = 12 * 60 * 60;

/**
 * A sign-in refused by a throttle (lib/accounts): `refusal` says which one (the account from this address, or the
 * address) and when to try again, for the form. next-auth hands the same error back to the server action.
 */
export class ThrottledSignIn extends CredentialsSignin {
  code = "throttled";
  constructor(readonly refusal: string) {
    super(refusal);
  }
}

/**
 * The dashboard's next-auth instance: email and password (argon2id) through the Credentials provider, JWT sessions.
 * Sign-in and sign-out run in server actions (`signIn`/`signOut`), which Next.js protects against cross-site posts,
 * so no next-auth route handler is mounted. Sessions are signed, encrypted JWTs keyed by `AUTH_SECRET` that carry
 * the developer id and the id of the account's DashboardSession row (lib/account-security); every request re-reads
 * both, so a deleted account or an ended session is out at once. An account with a second factor gets a session
 * that waits for it (`secondFactorPending`) and is not signed in until the factor is given (/sign-in/verify).
 */
export const { auth, signIn, signOut } = NextAuth({
  // The platform's own server sits in front of Next.js and sets Host; deployments behind a proxy set AUTH_URL.
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_SECONDS },
  pages: { signIn: SIGN_IN_PATH },
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      const sessionId = (user as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof sessionId === "string") token.sid = sessionId;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      if (typeof token.sid === "string") (session as { sessionId?: string }).sessionId = token.sid;
      return session;
    },
  },
  // A refused sign-in is an answer, not a fault: log it as one line without credentials, stacks or emails.
  logger: {
    error(error) {
      const refused = error.name === "CredentialsSignin" || error.name === "ThrottledSignIn";
      if (refused) log.info({ event: "dashboard.sign_in_refused" }, "dashboard sign-in refused");
      else log.error({ event: "dashboard.auth_error", err: error.name, message: error.message }, "dashboard auth error");
    },
    warn(code) {
      log.warn({ event: "dashboard.auth_warning", code }, "dashboard auth warning");
    },
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      // next-auth builds this request from the server action's headers, which carry the address our server recorded.
      async authorize(credentials, request) {
        try {
          const address = requestClientAddress(request);
          const developer = await verifySignIn({
            email: typeof credentials.email === "string" ? credentials.email : "",
            password: typeof credentials.password === "string" ? credentials.password : "",
            address,
          });
          const pending = await hasSecondFactor(developer.id);
          const { session, newDevice } = await startDashboardSession({ developerId: developer.id, userAgent: request.headers.get("user-agent"), address, secondFactorPending: pending });
          if (newDevice) await notifySecurity(developer.id, "new_device_sign_in", { device: session.device, address });
          return { id: developer.id, email: developer.email, name: developer.name, sessionId: session.id };
        } catch (error) {
          if (error instanceof TooManyAttemptsError) throw new ThrottledSignIn(error.message);
          if (error instanceof AccountError) return null;
          throw error;
        }
      },
    }),
    // Password-less sign-in with a passkey (WebAuthn, verified by @simplewebauthn/server against a challenge this
    // server issued): the passkey is the account's both factors, so the session is signed in with its factor given.
    Credentials({
      id: "passkey",
      credentials: { challengeId: {}, response: {} },
      async authorize(credentials, request) {
        const address = requestClientAddress(request);
        try {
          await claimPasswordCheck(address);
        } catch (error) {
          if (error instanceof TooManyAttemptsError) throw new ThrottledSignIn(error.message);
          throw error;
        }
        const developerId = await verifyPasskey({ developerId: null, challengeId: credentials.challengeId, response: credentials.response, rp: relyingPartyOf(request.headers) });
        const developer = developerId ? await db().developer.findUnique({ where: { id: developerId }, select: { id: true, email: true, name: true } }) : null;
        await withAuditAddress(address, () =>
          developer
            ? recordAudit(db(), { action: "auth.sign_in", actor: { type: "developer", id: developer.id, label: developer.email }, targetType: "developer", targetId: developer.id, after: { method: "passkey" } })
            : recordAudit(db(), { action: "auth.sign_in_failed", actor: { type: "anonymous", label: "passkey" }, targetType: "developer", targetId: "unknown", after: { reason: "passkey_not_verified" } }),
        );
        if (!developer) return null;
        const { session, newDevice } = await startDashboardSession({ developerId: developer.id, userAgent: request.headers.get("user-agent"), address, secondFactorPending: false, secondFactorGiven: true });
        if (newDevice) await notifySecurity(developer.id, "new_device_sign_in", { device: session.device, address });
        return { id: developer.id, email: developer.email, name: developer.name, sessionId: session.id };
      },
    }),
  ],
});
