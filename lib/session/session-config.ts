export const SIGN_IN_PATH = "/sign-in";
export const DASHBOARD_PATH = "/dashboard";

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
