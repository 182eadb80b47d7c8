import type { HttpMethod, OperationDeclaration } from "./operation";

/**
 * A way to serve an API request in process, as the platform server serves it over HTTP: MCP tools run their REST
 * twin through it, so a tool is the operation itself (pipeline, handler, answer), and resolve the declaration
 * serving a path, from which a tool's schemas are generated. The API families' tables provide it (lib/routes).
 */
export type ApiDispatcher = {
  /** The answer of the operation serving the request's path, exactly as over HTTP. */
  dispatch(request: Request): Promise<Response>;
  /** The declared operation serving `method` at `pathname` (a full path: `/api/v1/users/{subject}`), if any. */
  operationAt(method: HttpMethod, pathname: string): OperationDeclaration | undefined;
};
