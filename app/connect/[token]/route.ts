import { ApiError, errorResponse, newRequestId } from "@/lib/http";
import { sessionByLink } from "@/lib/connect";
import { linkPage } from "@/components/connect/link-page";
import { requestLocale, translatorFor } from "@/lib/i18n";

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
    const locale = requestLocale(request);
    const t = translatorFor(locale);
    return linkPage(request, {
      status: error.status,
      locale,
      title: t(expired ? "link.expiredTitle" : "link.invalidTitle"),
      message: t(expired ? "link.expired" : "link.invalid"),
    });
  }
}
