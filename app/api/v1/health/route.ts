import { route, serve } from "@/lib/api";
import { getHealth, platformHealth } from "@/lib/platform";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getHealth, () => platformHealth()),
});
