import type { Profile } from "@/lib/api";
import { errorResponse, HEADER } from "@/lib/http";
import { DATA_NOTICE, DATA_NOTICE_HEADER } from "./notice";
import { consumeDemoRateLimit } from "./rate-limit";

/** `/demo/v1`: keyless, limited per client address, marked fictional, briefly cacheable and open to browsers. */
export const DEMO_PROFILE: Profile = {
  name: "demo",
  familyHeaders: { [DATA_NOTICE_HEADER]: DATA_NOTICE },
  addressLimit: consumeDemoRateLimit,
  // Fixed fictional data may be cached briefly by browsers and shared caches.
  defaultCache: "public, max-age=60",
  cors: true,
  exposedHeaders: [HEADER.requestId, DATA_NOTICE_HEADER, HEADER.rateLimit, HEADER.rateLimitPolicy, HEADER.retryAfter],
  idempotencyKeys: false,
  errorResponse,
};
