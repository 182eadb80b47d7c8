import { requestUrl, webResponse, type Answer, type IncomingRequest } from "@/lib/http";
import type { HttpMethod, OperationDeclaration } from "./operation";
import type { Profile } from "./profiles";
import type { DeclaredHandler } from "./route";
import { pathAnswers, routeExports, unknownPath, type RouteAnswers, type RouteExports } from "./serve";

export type RouteParams = Record<string, string>;

type Node = {
  answers?: RouteAnswers;
  declared?: Partial<Record<HttpMethod, DeclaredHandler>>;
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
};

/**
 * One API family's dispatch table, built from its operations' declarations (each `route()` knows its method and
 * path): the platform server, the family's catch-all route file for Next.js and MCP tools all serve through it.
 */
export type RouteTable = {
  prefix: string;
  profile: Profile;
  /** Every operation the table serves, in the order declared. */
  operations: readonly OperationDeclaration[];
  /** The answer to any request under the prefix: the operation's, the path's OPTIONS, or the family's 404. */
  handle(request: Request): Promise<Response>;
  /** The same answer, JSON not made a Response (the platform server writes it to the socket itself). */
  answer(request: IncomingRequest): Promise<Answer>;
  /** The declared operation serving `method` at `pathname` (a full path: `/api/v1/users/u_1`), if any. */
  operationAt(method: HttpMethod, pathname: string): OperationDeclaration | undefined;
  /** The exports of the family's catch-all route file, for Next.js. */
  routeExports: RouteExports;
};

const newNode = (): Node => ({ statics: new Map() });

/**
 * The dispatch table of a family served at `prefix`. Paths are matched as the client wrote them (`/api/v1/%61pp`
 * is not `/api/v1/app`) and parameters are decoded; a static segment wins over a parameter at the same place.
 */
export function routeTable(prefix: string, profile: Profile, handlers: readonly DeclaredHandler[]): RouteTable {
  const byPath = new Map<string, Partial<Record<HttpMethod, DeclaredHandler>>>();
  for (const handler of handlers) {
    const { method, path } = handler.operation;
    const methods = byPath.get(path) ?? {};
    if (methods[method]) throw new Error(`two handlers for ${method} ${path}`);
    byPath.set(path, { ...methods, [method]: handler });
  }
  const root = newNode();
  for (const [path, methods] of byPath) insert(root, path, pathAnswers(methods), methods);
  const unknown = unknownPath(profile);

  const resolve = (pathname: string): Match | undefined => {
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return undefined;
    const parts = pathname.slice(prefix.length).split("/").filter((part) => part !== "");
    try {
      return matchFrom(root, parts, 0, {});
    } catch {
      // A parameter that does not decode names no resource.
      return undefined;
    }
  };

  const answer = (request: IncomingRequest): Promise<Answer> => {
    const match = resolve(requestUrl(request).pathname);
    const answers = match?.answers ?? unknown;
    const method = request.method === "HEAD" ? "GET" : request.method;
    const handler = answers[method as keyof RouteAnswers] ?? unknown.GET;
    return handler(request, { params: Promise.resolve(match?.params ?? {}) });
  };
  const handle = async (request: Request): Promise<Response> => webResponse(await answer(request));

  return {
    prefix,
    profile,
    operations: handlers.map((handler) => handler.operation),
    handle,
    answer,
    operationAt: (method, pathname) => resolve(pathname)?.declared?.[method]?.operation,
    routeExports: routeExports({ GET: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer, OPTIONS: answer }),
  };
}

type Match = { answers: RouteAnswers; declared?: Node["declared"]; params: RouteParams };

function insert(root: Node, path: string, answers: RouteAnswers, declared: Node["declared"]): void {
  let node = root;
  for (const segment of path.split("/").filter((part) => part !== "")) {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (param) {
      node.param ??= { name: param[1]!, node: newNode() };
      if (node.param.name !== param[1]) throw new Error(`two parameter names at one place: {${node.param.name}} and {${param[1]}} in ${path}`);
      node = node.param.node;
      continue;
    }
    let next = node.statics.get(segment);
    if (!next) node.statics.set(segment, (next = newNode()));
    node = next;
  }
  node.answers = answers;
  node.declared = declared;
}

function matchFrom(node: Node, parts: string[], index: number, params: RouteParams): Match | undefined {
  if (index === parts.length) return node.answers ? { answers: node.answers, declared: node.declared, params } : undefined;
  const part = parts[index]!;
  const child = node.statics.get(part);
  const fromStatic = child && matchFrom(child, parts, index + 1, params);
  if (fromStatic) return fromStatic;
  if (node.param) return matchFrom(node.param.node, parts, index + 1, Object.assign({}, params, { [node.param.name]: decodeURIComponent(part) }));
  return undefined;
}
