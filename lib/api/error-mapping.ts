import { ApiError, ClientClosedRequest, toApiError } from "@/lib/http";
import { log } from "@/lib/log";
import type { PipelineState } from "./steps";

/**
 * Anything a step or handler threw, as the profile's error answer with every header gathered so far. A client that
 * went away mid-body is not a fault of ours: it is logged at info, without a stack, and answered (to nobody) 400.
 */
export function mapError(error: unknown, state: PipelineState): Response {
  if (error instanceof ClientClosedRequest) {
    log.info({ requestId: state.requestId, method: state.request.method, path: state.url.pathname }, "client closed the request mid-body");
    const closed = new ApiError("invalid_request", "The request body ended before it was complete.");
    return state.profile.errorResponse(closed, state.requestId, state.headers);
  }
  return state.profile.errorResponse(toApiError(error, state.requestId), state.requestId, state.headers);
}
