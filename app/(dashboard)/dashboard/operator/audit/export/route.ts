import { auditExportResponse } from "@/lib/dashboard";

/** GET: the deployment's audit entries the query's filter selects, as a CSV or JSON download (operators only). */
export async function GET(request: Request): Promise<Response> {
  return auditExportResponse("deployment", new URL(request.url));
}
