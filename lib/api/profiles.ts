import { operationOutcomeResponse } from "@/lib/fhir";
import { addressLimit, ApiError, errorResponse, HEADER, SERVICE_VERSION, type RequestHead } from "@/lib/http";

export type ProfileName = "platform" | "demo" | "fhir" | "public" | "oauth" | "mcp" | "demo-mcp";

/**
 * How one API family differs. Every family runs the same pipeline steps; a profile only says what the steps put on
 * the response, which address limit applies, how errors are written and whether browsers may call it.
 */
export type Profile = {
  name: ProfileName;
  /** Headers every response of the family carries besides the request id, success or error. */
  familyHeaders: Record<string, string>;
  /** The per-address limit of a keyless family: consumes one request or throws 429; returns the RateLimit fields. */
  addressLimit?: (request: RequestHead) => Record<string, string>;
  /** Cache-Control for successful answers unless the operation says otherwise. */
  defaultCache: string;
  /** Keyless families that browsers may call from any origin, without credentials. */
  cors: boolean;
  /** Response headers a cross-origin caller may read. */
  exposedHeaders?: string[];
  /** Request headers a cross-origin caller may send besides Content-Type (a CORS preflight's answer). */
  allowedHeaders?: string[];
  /** Whether keyed operations also take delegated credentials (the REST API); elsewhere they are for another API. */
  delegatedCredentials?: boolean;
  /** Whether the family reads `Idempotency-Key` (validating it everywhere, honouring it where declared). */
  idempotencyKeys: boolean;
  errorResponse: (error: ApiError, requestId: string, headers: Record<string, string>) => Response;
};

export const NO_STORE = "no-store";

/** `/api/v1`: the spec's envelope, `Service-Version` on everything, closed to browsers. */
export const PLATFORM_PROFILE: Profile = {
  name: "platform",
  familyHeaders: { [HEADER.serviceVersion]: SERVICE_VERSION },
  defaultCache: NO_STORE,
  cors: false,
  idempotencyKeys: true,
  delegatedCredentials: true,
  errorResponse,
};

/** The synthetic health systems' FHIR APIs: errors are OperationOutcome resources, as FHIR clients expect. */
export const FHIR_PROFILE: Profile = {
  name: "fhir",
  familyHeaders: {},
  defaultCache: NO_STORE,
  cors: false,
  idempotencyKeys: false,
  errorResponse: operationOutcomeResponse,
};

/**
 * Shared conformance reports: readable by anyone with the link, from any origin, without credentials; never cached
 * (a live run's report changes); 60 requests per minute per client address and instance.
 */
export const PUBLIC_PROFILE: Profile = {
  name: "public",
  familyHeaders: {},
  addressLimit: addressLimit({ name: "public", points: 60, windowSeconds: 60 }),
  defaultCache: NO_STORE,
  cors: true,
  exposedHeaders: [HEADER.requestId, HEADER.rateLimit, HEADER.rateLimitPolicy, HEADER.retryAfter],
  idempotencyKeys: false,
  errorResponse,
};

/** Cross-origin headers for a family browsers may call: any origin, never credentials. */
export function corsHeaders(profile: Profile, operationHeaders: readonly string[] = []): Record<string, string> {
  if (!profile.cors) return {};
  const exposed = [...(profile.exposedHeaders ?? []), ...operationHeaders];
  return {
    "Access-Control-Allow-Origin": "*",
    ...(exposed.length > 0 ? { "Access-Control-Expose-Headers": exposed.join(", ") } : {}),
  };
}
