import { PLATFORM_PROFILE, type Profile } from "@/lib/api";
import { DEMO_PROFILE } from "@/lib/demo";
import { HEADER, type ApiError } from "@/lib/http";

/** The two JSON APIs the platform serves; everything else is pages and their assets. */
export type ApiFamily = "api" | "demo";

const FAMILIES: Record<ApiFamily, { prefix: string; profile: Profile }> = {
  api: { prefix: "/api/v1", profile: PLATFORM_PROFILE },
  demo: { prefix: "/demo/v1", profile: DEMO_PROFILE },
};

/** Which API a canonical path belongs to, if any. */
export function familyOf(path: string): ApiFamily | undefined {
  return (Object.keys(FAMILIES) as ApiFamily[]).find((family) => {
    const { prefix } = FAMILIES[family];
    return path === prefix || path.startsWith(`${prefix}/`);
  });
}

/**
 * Headers every response of a family carries, whichever code answers: a route, Next.js itself (OPTIONS, its 404s)
 * or this server. They are the route kit's profile headers, so the two layers cannot drift apart.
 */
export function familyHeaders(family: ApiFamily, requestId: string): Record<string, string> {
  return Object.assign({}, FAMILIES[family].profile.familyHeaders, { [HEADER.requestId]: requestId });
}

/** An error in the family's own format with its headers, for requests refused before any route runs. */
export function familyErrorResponse(family: ApiFamily, error: ApiError, requestId: string): Response {
  const { profile } = FAMILIES[family];
  return profile.errorResponse(error, requestId, familyHeaders(family, requestId));
}
