import { HEADER, SERVICE_VERSION } from "@/lib/http";
import type { HeaderSpec } from "./build-document";

/** Response headers both documents describe. */
export const COMMON_HEADERS: Record<string, HeaderSpec> = {
  [HEADER.requestId]: {
    description: "Id of this request; error bodies repeat it as error.requestId.",
    schema: { type: "string" },
  },
  [HEADER.retryAfter]: {
    description: "Seconds to wait before retrying (429 responses).",
    schema: { type: "integer", minimum: 1 },
  },
  [HEADER.rateLimitPolicy]: {
    description: 'The rate-limit policy (IETF RateLimit header fields draft), e.g. "key";q=300;w=60: q requests per w seconds.',
    schema: { type: "string" },
  },
  [HEADER.rateLimit]: {
    description: 'What is left of the current window, e.g. "key";r=299;t=60: r requests remain, the window resets in t seconds.',
    schema: { type: "string" },
  },
  [HEADER.serviceVersion]: {
    description: `The date of the response contract in force: ${SERVICE_VERSION}.`,
    schema: { type: "string", const: SERVICE_VERSION },
  },
};
