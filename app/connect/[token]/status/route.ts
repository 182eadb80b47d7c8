import { ApiError, errorResponse, newRequestId } from "@/lib/http";
import { flowState } from "@/lib/connect";

export const dynamic = "force-dynamic";

/** The import progress the done page polls: each chosen health system's sync state and record count. */
export async function GET(_request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await context.params;
  try {
    const state = await flowState(token);
    return Response.json(
      { status: state.session.status, sources: state.chosen.map(({ id, name, syncStatus, records }) => ({ id, name, status: syncStatus, records })) },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, newRequestId());
    throw error;
  }
}
