import { patientViewByLink } from "@/lib/connect";
import { ApiError, errorResponse, newRequestId } from "@/lib/http";

export const dynamic = "force-dynamic";

/**
 * The patient's disclosure history as a JSON download (issue 53, point 4): the same view the receipt page shows (the
 * health systems, the records the application can read per category, every day it read and what, and each AI agent's
 * credential with its declared purpose and reads). Readable only through the receipt link's token; never cached.
 */
export async function GET(_request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await context.params;
  try {
    const view = await patientViewByLink(token);
    const day = view.generatedAt.toISOString().slice(0, 10);
    return new Response(`${JSON.stringify(view, null, 2)}\n`, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="chartkey-disclosures-${day}.json"`,
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
      },
    });
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, newRequestId());
    throw error;
  }
}
