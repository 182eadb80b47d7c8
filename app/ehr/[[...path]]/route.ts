import { EHR_ROUTES } from "@/lib/routes";

export const dynamic = "force-dynamic";

// Every /ehr path (the synthetic health systems) is answered by the family's dispatch table.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = EHR_ROUTES.routeExports;
