import type { HttpMethod, OperationDeclaration } from "./operation";

/**
 * The process's way to serve an API request in process, as the platform server serves it from the route files: MCP
 * tools run their REST twin through it, so a tool is the operation itself (pipeline, handler, answer), and resolve
 * the declaration serving a path, from which a tool's schemas are generated.
 */
export type ApiDispatcher = {
  /** The answer of the route file serving the request's path, exactly as over HTTP. */
  dispatch(request: Request): Promise<Response>;
  /** The declared operation serving `method` at `pathname` (a full path: `/api/v1/users/{subject}`), if any. */
  operationAt(method: HttpMethod, pathname: string): OperationDeclaration | undefined;
};

// On globalThis: the launcher registers it, and the route modules Next.js bundles read the same one.
const globalForDispatch = globalThis as typeof globalThis & { __chartkeyApiDispatcher?: ApiDispatcher };

export function setApiDispatcher(dispatcher: ApiDispatcher): void {
  globalForDispatch.__chartkeyApiDispatcher = dispatcher;
}

/** The registered dispatcher; the platform server (`npm start`) registers one before it serves. */
export function apiDispatcher(): ApiDispatcher {
  const dispatcher = globalForDispatch.__chartkeyApiDispatcher;
  if (!dispatcher) throw new Error("no API dispatcher: MCP tools run inside the platform server (npm start)");
  return dispatcher;
}
