import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { INTERNAL_HEADER, JsonAnswer, writeJsonText, type Answer } from "@/lib/http";
import { listenOnFreePort } from "@/test/raw-http";

// A route file's export: declared operations (lib/api route()) also answer without making a Response of their JSON.
type RouteHandler = ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) & {
  answer?: (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Answer>;
};
type RouteFile = { segments: string[]; file: string };

/** What the server answered, in order, for tests that check how a client behaved over the wire. */
export type ServedRequest = { method: string; path: string; status: number; at: number };

/** Every route.ts under `folder`, as its URL segments (`[name]` for a dynamic one), most static first. */
function routeFiles(folder: string): RouteFile[] {
  const root = path.join(process.cwd(), folder);
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .map((file) => ({ segments: path.dirname(file) === "." ? [] : path.dirname(file).split(path.sep), file: path.join(root, file) }))
    .sort((a, b) => staticCount(b) - staticCount(a));
}

const staticCount = (route: RouteFile) => route.segments.filter((segment) => !segment.startsWith("[")).length;

function match(route: RouteFile, parts: string[]): Record<string, string> | null {
  // An optional catch-all (`[[...path]]`, a family's one route file) takes whatever is left, nothing included.
  const catchAll = route.segments.length > 0 && /^\[\[\.\.\.\w+\]\]$/.test(route.segments.at(-1)!);
  const fixed = catchAll ? route.segments.slice(0, -1) : route.segments;
  if (catchAll ? parts.length < fixed.length : fixed.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of fixed.entries()) {
    const part = parts[index] as string;
    const dynamic = /^\[(\w+)\]$/.exec(segment);
    if (dynamic) params[dynamic[1] as string] = decodeURIComponent(part);
    else if (segment !== part) return null;
  }
  return params;
}

async function body(req: IncomingMessage): Promise<string | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  // Text is enough: the routes served take forms and JSON.
  return Buffer.concat(chunks).toString("utf8");
}

type RouteModule = Record<string, RouteHandler | undefined>;
// Each route file is imported once: an import() per request asks the module loader (and tsx's resolve hook, a
// message to its worker) every time, which was a tenth of the bench health system's CPU.
const routeModules = new Map<string, Promise<RouteModule>>();
function loadRoute(file: string): Promise<RouteModule> {
  let loaded = routeModules.get(file);
  if (!loaded) {
    loaded = import(/* @vite-ignore */ file) as Promise<RouteModule>;
    routeModules.set(file, loaded);
  }
  return loaded;
}

/**
 * A real HTTP server that serves the route files under `app/{mount}` the way Next.js calls them (a Request and
 * the params as a promise), for tests of clients that must talk HTTP: the SMART client against the synthetic
 * health systems. Unmatched paths are 404.
 */
export async function serveRouteFiles(mount: string) {
  const routes = routeFiles(path.join("app", mount));
  const served: ServedRequest[] = [];
  let origin = "";
  const listener = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    const parts = url.pathname.split("/").filter((part) => part !== "");
    let answer: Answer = new Response("not found", { status: 404 });
    if (parts[0] === mount) {
      for (const route of routes) {
        const params = match(route, parts.slice(1));
        if (!params) continue;
        const routeModule = await loadRoute(route.file);
        const handler = routeModule[req.method ?? "GET"];
        if (handler) {
          const headers = new Headers(Object.entries(req.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])));
          headers.set(INTERNAL_HEADER.clientAddress, "127.0.0.1");
          answer = await (handler.answer ?? handler)(new Request(url, { method: req.method, headers, body: await body(req) }), { params: Promise.resolve(params) });
        }
        break;
      }
    }
    served.push({ method: req.method ?? "GET", path: url.pathname + url.search, status: answer.status, at: Date.now() });
    res.statusCode = answer.status;
    // A JSON answer's text is written as it is, as the platform's own server does (lib/server/direct-api.ts).
    if (answer instanceof JsonAnswer) {
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      return writeJsonText(res, answer.json);
    }
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
  const server = await listenOnFreePort((req, res) => {
    listener(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  origin = `http://127.0.0.1:${server.port}`;
  return { ...server, origin, served };
}
