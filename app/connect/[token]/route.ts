import { ApiError, errorResponse, newRequestId } from "@/lib/http";
import { sessionByLink } from "@/lib/connect";
import { linkPage } from "@/components/connect/link-page";

export const dynamic = "force-dynamic";

/**
 * The connect URL itself. A live link sends the patient to the step they are at; an unknown or expired one answers
 * 404 or 410 `session_expired`: a page a patient understands, or the error envelope for API clients.
 */
export async function GET(request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await context.params;
  try {
    const session = await sessionByLink(token);
    const step = session.status === "pending" ? (session.providerIds.length === 0 ? "start" : "sign-in") : "done";
    return Response.redirect(new URL(`/connect/${token}/${step}`, request.url), 303);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if ((request.headers.get("accept") ?? "").includes("application/json")) return errorResponse(error, newRequestId());
    const expired = error.code === "session_expired";
    return linkPage(request, {
      status: error.status,
      title: expired ? "This link has expired" : "This link is not valid",
      message: expired
        ? "Links to connect your health records work for 60 minutes. Go back to the app that sent you and start again to get a new one."
        : "Check that you opened the whole link, or go back to the app that sent you and start again.",
    });
  }
}
