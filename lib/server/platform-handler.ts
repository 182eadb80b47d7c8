import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import { familyErrorResponse, familyHeaders, familyOf, type ApiFamily } from "./api-families";
import { coalesceWrites } from "./coalesce-writes";
import { setHeaderDefaults } from "./header-defaults";
import { headerText } from "./header-text";
import { assignInternalHeaders } from "./internal-headers";
import { checkFormBody, isPageFormPost } from "./form-body";
import { plainResponse, refusalFor } from "./refusal";
import { requestIsHttps } from "./request-scheme";
import { canonicalPath, splitTarget } from "./request-target";
import type { DirectApiHandler } from "./direct-api";
import { contentSecurityPolicy, documentHeaders, newNonce, transportHeaders } from "./security-headers";
import { sendWebResponse } from "./send-web-response";

/** Next.js's request handler (`app.getRequestHandler()`), or a stand-in in tests. */
export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Next.js renders a page's scripts with the nonce it finds in the request's Content-Security-Policy header, so
 * the policy goes on the request (replacing any a client sent) as well as on the response.
 */
function prepareDocument(req: IncomingMessage, https: boolean, pathname: string): Record<string, string> {
  const policy = contentSecurityPolicy(newNonce(), https, pathname);
  req.headers["content-security-policy"] = policy;
  return documentHeaders(policy);
}

function responseDefaults(req: IncomingMessage, family: ApiFamily | undefined, requestId: string, https: boolean, path: string) {
  return Object.assign(transportHeaders(https), family ? familyHeaders(family, requestId) : prepareDocument(req, https, path));
}

async function answerFailure(res: ServerResponse, family: ApiFamily | undefined, requestId: string, error: unknown) {
  log.error({ requestId, err: (error as Error)?.stack ?? String(error) }, "request handler failed");
  if (res.headersSent) return void res.destroy();
  const failure = new ApiError("internal_error", "An unexpected error occurred; retry with backoff.");
  await sendWebResponse(res, family ? familyErrorResponse(family, failure, requestId) : new Response("Internal Server Error\n", { status: 500 }));
}

/**
 * The platform's layer in front of Next.js, per request: trusted internal headers, the response headers each kind
 * of response must carry, refusal of requests Next cannot route (or whose form body it cannot parse), and one
 * spelling of every API path. With `directApi`, API requests then go straight to their route files' handlers
 * (lib/server/direct-api.ts) instead of through Next.js, which still serves everything else.
 */
export function platformRequestHandler(handleNext: NextHandler, trustedHops: number, directApi?: DirectApiHandler) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = assignInternalHeaders(req, trustedHops);
    const target = splitTarget(req.url ?? "/");
    const path = canonicalPath(target.pathname);
    const family = familyOf(path);
    const https = requestIsHttps((req.socket as TLSSocket).encrypted === true, headerText(req.headers["x-forwarded-proto"]), trustedHops);
    setHeaderDefaults(res, responseDefaults(req, family, requestId, https, path));
    // API answers are one JSON body each; pages stream and keep every write as it comes.
    if (family) coalesceWrites(res);

    const refusal = refusalFor({ method: req.method ?? "", httpVersion: req.httpVersion, headers: req.headers }, target.pathname, family, requestId);
    if (refusal) {
      log.info({ requestId, method: req.method, status: refusal.status }, "request refused before routing");
      return sendWebResponse(res, refusal);
    }
    // An internal rewrite, not a redirect: the client gets the operation's answer at the path it wrote.
    if (family) req.url = path + target.search;
    try {
      if (family && directApi && (await directApi(req, res, path))) return;
      if (!family && isPageFormPost(req)) {
        const checked = await checkFormBody(req);
        if ("status" in checked) {
          log.info({ requestId, method: req.method, status: checked.status }, "form body refused before Next.js");
          return await sendWebResponse(res, plainResponse(checked.status, checked.message));
        }
        return await handleNext(checked.request, res);
      }
      await handleNext(req, res);
    } catch (error) {
      await answerFailure(res, family, requestId, error);
    }
  };
}
