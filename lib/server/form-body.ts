import { IncomingMessage } from "node:http";

/** Next.js's own limit on a server action's body (its `serverActions.bodySizeLimit` default, which we keep). */
export const MAX_FORM_BODY_BYTES = 1024 * 1024;

export type FormBodyCheck = { request: IncomingMessage } | { status: 400 | 413; message: string };

/** A POST to a page with a multipart body: Next.js parses it as a server action's form before any code of ours. */
export function isPageFormPost(req: IncomingMessage): boolean {
  return req.method === "POST" && /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");
}

/**
 * Reads a page's multipart POST body and parses it as Next.js will (the WHATWG form-data parser), so that a body
 * that is not the form it claims to be is refused here with a 400, where Next.js would fail parsing it and answer
 * a bare 500 to anyone, signed in or not. A body that parses is handed on as a fresh request carrying the same
 * bytes, since the original's stream has been read.
 */
export async function checkFormBody(req: IncomingMessage): Promise<FormBodyCheck> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BODY_BYTES) return { status: 413, message: `The form body exceeds ${MAX_FORM_BODY_BYTES / 1024 / 1024} MB.` };
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  try {
    await new Response(body, { headers: { "Content-Type": req.headers["content-type"]! } }).formData();
  } catch {
    return { status: 400, message: "The request body is not the multipart/form-data its Content-Type says it is." };
  }
  return { request: replay(req, body) };
}

/** A request like `req` whose body, read from the start, is `body`. */
function replay(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  Object.assign(copy, {
    method: req.method,
    url: req.url,
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    httpVersion: req.httpVersion,
    httpVersionMajor: req.httpVersionMajor,
    httpVersionMinor: req.httpVersionMinor,
    complete: true,
  });
  copy.push(body);
  copy.push(null);
  return copy;
}
