import type { NextAuthConfig } from "next-auth";

export const SIGN_IN_PATH = "/sign-in";
export const DASHBOARD_PATH = "/dashboard";

/** Twelve hours: a working day, after which the developer signs in again. */
const SESSION_SECONDS = 12 * 60 * 60;

/**
 * The dashboard session's settings, apart from its providers (no database here). Sessions are signed, encrypted JWTs keyed by `AUTH_SECRET`; the
 * token carries only the developer id, and pages re-read the developer on each request (a deleted account is out at
 * once).
 */
export const sessionConfig = {
  // The platform's own server sits in front of Next.js and sets Host; deployments behind a proxy set AUTH_URL.
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_SECONDS },
  pages: { signIn: SIGN_IN_PATH },
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
} satisfies NextAuthConfig;

/**
 * Where to go after signing in: only a path on this site (an absolute or protocol-relative URL would make the sign-in
 * page an open redirect).
 */
export function safeReturnPath(candidate: unknown): string {
  if (typeof candidate !== "string" || !candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) {
    return DASHBOARD_PATH;
  }
  return candidate;
}
