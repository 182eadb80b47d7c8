import { PUBLIC_PROFILE, route, routeTable, type RouteTable } from "@/lib/api";
import { getConformanceReportOperation, getConformanceReport } from "@/lib/conformance";

/** `/conformance`: the shared conformance reports, at the host root (their declared paths carry `/conformance`). */
export const REPORT_ROUTES: RouteTable = routeTable("", PUBLIC_PROFILE, [
  route(getConformanceReportOperation, async ({ params }) => ({ body: await getConformanceReport(params.token) })),
]);
