import { REPORT_ROUTES } from "@/lib/routes";

export const dynamic = "force-dynamic";

// Every /conformance path (the shared reports' JSON) is answered by the family's dispatch table.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = REPORT_ROUTES.routeExports;
