import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { deflate, gzip } from "node:zlib";
import Negotiator from "negotiator";
import { JsonText } from "@/lib/http";

// What Next.js's server does to every answer (its `compress` option, on by default, the `compression` middleware),
// so that API answers served by the platform server reach the same clients the same way: gzip or deflate as the
// client accepts them, for compressible types from 1 KiB, never for Cache-Control: no-transform, always with
// Vary: Accept-Encoding when the type is compressible.
const THRESHOLD_BYTES = 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|x-ndjson)$)|\+(?:json|text|xml)$/i;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;
const ENCODERS = { gzip: promisify(gzip), deflate: promisify(deflate) };

/**
 * The body to send for `body` (bytes, text sent as UTF-8, or JSON text in pieces), compressed (with Content-Encoding
 * set) when the client and the answer allow it.
 */
export async function compressBody<Body extends Buffer | string | JsonText>(req: IncomingMessage, res: ServerResponse, body: Body): Promise<Body | Buffer> {
  if (!isCompressible(res)) return body;
  if (NO_TRANSFORM.test(String(res.getHeader("cache-control") ?? ""))) return body;
  addVary(res, "Accept-Encoding");
  if (byteLength(body) < THRESHOLD_BYTES || res.hasHeader("content-encoding") || req.method === "HEAD") return body;
  const encoding = preferredEncoding(req);
  if (!encoding) return body;
  res.setHeader("Content-Encoding", encoding);
  return ENCODERS[encoding](bytesOf(body));
}

/** Whether the answer's Content-Type is one compressBody may compress (else its body is sent as it is, whatever its size). */
export function isCompressible(res: ServerResponse): boolean {
  return COMPRESSIBLE.test(String(res.getHeader("content-type") ?? "").split(";")[0]!.trim());
}

const byteLength = (body: Buffer | string | JsonText) => (body instanceof JsonText ? body.byteLength : Buffer.byteLength(body));

// Compressed answers are bytes outside V8's heap (Buffers), however long: only the text pieces are strings.
function bytesOf(body: Buffer | string | JsonText): Buffer {
  if (body instanceof JsonText) return Buffer.concat(body.parts.map((part) => Buffer.from(part)), body.byteLength);
  return typeof body === "string" ? Buffer.from(body) : body;
}

/** gzip over deflate whenever the client accepts both, as the middleware chooses. */
function preferredEncoding(req: IncomingMessage): "gzip" | "deflate" | undefined {
  const negotiator = new Negotiator(req);
  let encoding = negotiator.encoding(["gzip", "deflate", "identity"]);
  if (encoding === "deflate" && negotiator.encoding(["gzip"])) encoding = negotiator.encoding(["gzip", "identity"]);
  return encoding === "gzip" || encoding === "deflate" ? encoding : undefined;
}

function addVary(res: ServerResponse, field: string): void {
  const current = String(res.getHeader("vary") ?? "");
  const fields = current.split(",").map((name) => name.trim().toLowerCase());
  if (fields.includes("*") || fields.includes(field.toLowerCase())) return;
  res.setHeader("Vary", current.trim() === "" ? field : `${current}, ${field}`);
}
