import { NO_STORE, PLATFORM_PROFILE, type Profile } from "@/lib/api";
import { DEMO_PROFILE } from "@/lib/demo";
import { errorEnvelope, type ApiError } from "@/lib/http";

// JSON-RPC's range for server-defined errors; the spec's envelope rides in `data`, so clients still branch on `code`.
const REFUSED = -32001;

/**
 * A request refused before any MCP message is read (bad key, a limit, a body too large) fails as a whole: a
 * JSON-RPC error with the HTTP status the REST API would answer, and the spec's envelope as its data.
 */
function jsonRpcErrorResponse(error: ApiError, requestId: string, headers: Record<string, string>): Response {
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: REFUSED, message: error.message, data: errorEnvelope(error, requestId) } },
    { status: error.status, headers: { ...headers, ...error.headers, "Cache-Control": NO_STORE } },
  );
}

/** `/api/v1/mcp`: the platform's headers and key, JSON-RPC errors; delegated credentials are for the REST API only. */
export const MCP_PROFILE: Profile = {
  ...PLATFORM_PROFILE,
  name: "mcp",
  idempotencyKeys: false,
  delegatedCredentials: false,
  errorResponse: jsonRpcErrorResponse,
};

/** `/demo/v1/mcp`: keyless and open to browsers like the demo, under the demo's per-address limit. */
export const DEMO_MCP_PROFILE: Profile = {
  ...DEMO_PROFILE,
  name: "demo-mcp",
  defaultCache: NO_STORE,
  allowedHeaders: ["Accept", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"],
  errorResponse: jsonRpcErrorResponse,
};
