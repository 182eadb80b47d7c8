import { notFoundRoute } from "@/lib/http/api-route";

export const dynamic = "force-dynamic";

const notFound = notFoundRoute();
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
