import { ApiError, ClientClosedRequest, toApiError } from "@/lib/http";
import { log } from "@/lib/log";
import type { PipelineState } from "./steps";

/**
 * Anything a step or handler threw, as the profile's error answer with every header gathered so far. A client that
 * went away mid-body is not a fault of ours: it is logged at info, without a stack, and answered (to nobody) 400.
 * Also returns the error's code, for the request log.
 */
export function mapError(error: unknown, state: PipelineState): { response: Response; code: string } {
  let apiError: ApiError;
  if (error instanceof ClientClosedRequest) {
    log.info({ requestId: state.requestId, method: state.request.method, path: state.url.pathname }, "client closed the request mid-body");
    apiError = new ApiError("invalid_request", "The request body ended before it was complete.");
  } else {
    apiError = toApiError(error, state.requestId);
  }
  return { response: state.profile.errorResponse(apiError, state.requestId, state.headers), code: apiError.code };
}
