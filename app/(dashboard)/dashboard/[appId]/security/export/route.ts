import { auditExportResponse } from "@/lib/dashboard";

/** GET: the application's audit entries the query's filter selects, as a CSV or JSON download (members only). */
export async function GET(request: Request, { params }: { params: Promise<{ appId: string }> }): Promise<Response> {
  const { appId } = await params;
  return auditExportResponse({ applicationId: appId }, new URL(request.url));
}
