import { PLATFORM_PROFILE, route, routeTable, type ApiDispatcher, type RouteTable } from "@/lib/api";
import { DEMO_PROFILE } from "@/lib/demo";
import { DEMO_TOOLS, demoMcpOperation, PLATFORM_TOOLS, platformMcpOperation, serveMcp } from "@/lib/mcp";
import { DEMO_HANDLERS } from "./demo-routes";
import { PLATFORM_HANDLERS } from "./platform-routes";

/** `/api/v1`: every keyed operation, and the MCP server whose tools call them. */
export const PLATFORM_ROUTES: RouteTable = routeTable(PLATFORM_TOOLS.prefix, PLATFORM_PROFILE, [
  ...PLATFORM_HANDLERS,
  route(platformMcpOperation, ({ request, requestId, body }) => serveMcp(PLATFORM_TOOLS, request, requestId, body, API_DISPATCHER)),
]);

/** `/demo/v1`: the keyless demo API, and its MCP server. */
export const DEMO_ROUTES: RouteTable = routeTable(DEMO_TOOLS.prefix, DEMO_PROFILE, [
  ...DEMO_HANDLERS,
  route(demoMcpOperation, ({ request, requestId, body }) => serveMcp(DEMO_TOOLS, request, requestId, body, API_DISPATCHER)),
]);

/** Both API families' tables, each serving every path under its prefix. */
export const API_ROUTES: readonly RouteTable[] = [PLATFORM_ROUTES, DEMO_ROUTES];

function tableOf(pathname: string): RouteTable | undefined {
  return API_ROUTES.find((table) => pathname === table.prefix || pathname.startsWith(`${table.prefix}/`));
}

/** How MCP tools call their REST twins in process: through the same tables the server serves HTTP from. */
export const API_DISPATCHER: ApiDispatcher = {
  dispatch: (request) => {
    const pathname = new URL(request.url).pathname;
    const table = tableOf(pathname);
    if (!table) throw new Error(`no API family serves ${pathname}`);
    return table.handle(request);
  },
  operationAt: (method, pathname) => tableOf(pathname)?.operationAt(method, pathname),
};

/** The answer of the family serving the request's path (tests call operations this way, as over HTTP). */
export function dispatchApiRequest(request: Request): Promise<Response> {
  return API_DISPATCHER.dispatch(request);
}
