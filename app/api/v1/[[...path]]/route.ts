import { PLATFORM_ROUTES } from "@/lib/routes";

export const dynamic = "force-dynamic";

// Every /api/v1 path, when Next.js serves it (CHARTKEY_API_DIRECT=off), is answered by the family's dispatch table,
// as the platform server answers it directly.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = PLATFORM_ROUTES.routeExports;
