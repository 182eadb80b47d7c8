import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { SIGN_IN_PATH, sessionConfig } from "@/lib/session";

const { auth } = NextAuth(sessionConfig);

/**
 * Signed-in pages: a visitor without a valid session cookie is sent to sign in and brought back afterwards. Pages
 * check the developer again on render (the cookie may name an account that no longer exists), so this is the first
 * gate, not the only one.
 */
export default auth((request) => {
  if (request.auth?.user?.id) return NextResponse.next();
  const signIn = new URL(SIGN_IN_PATH, request.nextUrl);
  signIn.searchParams.set("next", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
});

export const config = { matcher: ["/dashboard/:path*", "/invitations/:path*"] };
