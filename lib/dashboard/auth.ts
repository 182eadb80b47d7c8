import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/auth";
import { log } from "@/lib/log";
import { sessionConfig } from "@/lib/session";

/** A sign-in refused because the account or the address failed too often; the form says when to try again. */
export class ThrottledSignIn extends CredentialsSignin {
  code = "throttled";
}

/**
 * The dashboard's next-auth instance: email and password (argon2id) through the Credentials provider, JWT sessions.
 * Sign-in and sign-out run in server actions (`signIn`/`signOut`), which Next.js protects against cross-site posts,
 * so no next-auth route handler is mounted.
 */
export const { auth, signIn, signOut } = NextAuth({
  ...sessionConfig,
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
      async authorize(credentials) {
        const email = typeof credentials.email === "string" ? credentials.email.trim().toLowerCase() : "";
        const password = typeof credentials.password === "string" ? credentials.password : "";
        const developer = await db().developer.findUnique({ where: { email } });
        if (!developer || !(await verifyPassword(developer.passwordHash, password))) return null;
        return { id: developer.id, email: developer.email, name: developer.name };
      },
    }),
  ],
});
