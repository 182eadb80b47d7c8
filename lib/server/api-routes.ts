import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { RouteExports } from "@/lib/api";

/** A route file's exports as the platform server calls them: the same `serve()` exports Next.js calls. */
export type RouteParams = Record<string, string | string[]>;

type Node = {
  exports?: RouteExports;
  statics: Map<string, Node>;
  dynamic?: { name: string; node: Node };
  catchAll?: { name: string; exports: RouteExports };
  optionalCatchAll?: { name: string; exports: RouteExports };
};

/** The API route files of the app folder, matched as Next.js's App Router matches them. */
export type ApiRouteTable = { root: Node; files: string[] };
export type RouteMatch = { exports: RouteExports; params: RouteParams };

const newNode = (): Node => ({ statics: new Map() });

/** `[[...path]]`, `[...path]`, `[id]`, or a static segment; route groups `(name)` add no segment to the URL. */
function insert(root: Node, segments: string[], exports: RouteExports): void {
  let node = root;
  for (const [index, segment] of segments.entries()) {
    if (/^\(.+\)$/.test(segment)) continue;
    const catchAll = /^\[(\[)?\.\.\.(\w+)\]?\]$/.exec(segment);
    if (catchAll) {
      if (index !== segments.length - 1) throw new Error(`a catch-all must be the last segment: ${segments.join("/")}`);
      node[catchAll[1] ? "optionalCatchAll" : "catchAll"] = { name: catchAll[2]!, exports };
      return;
    }
    const dynamic = /^\[(\w+)\]$/.exec(segment);
    if (dynamic) {
      node.dynamic ??= { name: dynamic[1]!, node: newNode() };
      if (node.dynamic.name !== dynamic[1]) throw new Error(`two parameter names at one level: ${node.dynamic.name} and ${dynamic[1]}`);
      node = node.dynamic.node;
      continue;
    }
    let next = node.statics.get(segment);
    if (!next) node.statics.set(segment, (next = newNode()));
    node = next;
  }
  node.exports = exports;
}

/**
 * Loads every `route.ts` under the folders (relative to `appDir`, e.g. `api/v1`), which must be the folders of
 * whole API families: their route files are the only code that answers their paths.
 */
export async function loadApiRoutes(appDir: string, folders: readonly string[]): Promise<ApiRouteTable> {
  const table: ApiRouteTable = { root: newNode(), files: [] };
  for (const folder of folders) {
    const files = readdirSync(path.join(appDir, folder), { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "route.ts");
    for (const file of files.sort()) {
      const relative = path.join(folder, file);
      const exports = (await import(pathToFileURL(path.join(appDir, relative)).href)) as RouteExports;
      insert(table.root, path.dirname(relative).split(path.sep), exports);
      table.files.push(relative);
    }
  }
  return table;
}

/**
 * The route file serving a canonical path and its parameters as Next.js gives them: segments are matched as the
 * client wrote them (`/api/v1/%61pp` is not `/api/v1/app`), and parameters are decoded (a catch-all's as an array).
 * A static segment wins over a parameter, a parameter over a catch-all, a catch-all over an optional one.
 */
export function matchRoute(table: ApiRouteTable, pathname: string): RouteMatch | undefined {
  try {
    return matchFrom(table.root, pathname.split("/").filter((part) => part !== ""), 0, {});
  } catch {
    // A segment that does not decode; the platform handler refuses such paths before they get here.
    return undefined;
  }
}

function matchFrom(node: Node, parts: string[], index: number, params: RouteParams): RouteMatch | undefined {
  if (index === parts.length) {
    if (node.exports) return { exports: node.exports, params };
    if (node.optionalCatchAll) return { exports: node.optionalCatchAll.exports, params };
    return undefined;
  }
  const part = parts[index]!;
  const child = node.statics.get(part);
  const fromStatic = child && matchFrom(child, parts, index + 1, params);
  if (fromStatic) return fromStatic;
  if (node.dynamic) {
    const fromDynamic = matchFrom(node.dynamic.node, parts, index + 1, { ...params, [node.dynamic.name]: decodeURIComponent(part) });
    if (fromDynamic) return fromDynamic;
  }
  const rest = node.catchAll ?? node.optionalCatchAll;
  if (rest) return { exports: rest.exports, params: { ...params, [rest.name]: parts.slice(index).map((segment) => decodeURIComponent(segment)) } };
  return undefined;
}
