import { AUTHORIZATION_MINUTES } from "@/lib/sources";

/** The cookie that marks this browser as the one that started a sign-in: its name ends with the OAuth state. */
export const SIGN_IN_COOKIE_PREFIX = "ck_signin_";
export const SIGN_IN_MINUTES = AUTHORIZATION_MINUTES;
