import { INTERNAL_HEADER } from "@/lib/http";
import { dispatchApiRequest } from "@/lib/routes";

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export type DemoCall = { status: number; headers: Headers; body: unknown };

let addressCounter = 0;

/** A client address no other test uses, so tests share the per-address demo rate limit only when they mean to. */
export function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

/** Calls a route handler the way Next.js does: a Request plus the route's params as a promise. */
export async function callDemo(
  handler: RouteHandler,
  path: string,
  options: {
    params?: Record<string, string | string[]>;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    /** The client address the platform's server would record; a fresh one unless the test shares a bucket. */
    address?: string;
  } = {},
): Promise<DemoCall> {
  const request = new Request(`http://localhost${path}`, {
    method: options.method ?? "GET",
    body: options.body,
    headers: {
      [INTERNAL_HEADER.clientAddress]: options.address ?? freshAddress(),
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? null : JSON.parse(text) };
}

/** Calls the demo API in process as the platform server does: its dispatch table picks the operation from the path. */
export function callApi(path: string, options: Omit<Parameters<typeof callDemo>[2], "params"> = {}): Promise<DemoCall> {
  return callDemo(dispatchApiRequest, path, options);
}

/** The `error.code` of an error envelope body. */
export function errorCode(call: DemoCall): string | undefined {
  return (call.body as { error?: { code?: string } } | null)?.error?.code;
}
