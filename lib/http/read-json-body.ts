import { ApiError } from "./api-error";
import { MAX_BODY_BYTES } from "./headers";

/**
 * Reads a JSON object body, counting bytes as they stream so an oversized body is refused without being buffered
 * whole and whatever Content-Length claims. An empty body reads as `{}`: a missing field then fails validation
 * with `invalid_request`, which names the field.
 */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);

  const text = await readLimited(request, maxBytes);
  if (text.trim() === "") return {};

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new ApiError("invalid_request", "Send request bodies as JSON with Content-Type: application/json.", {
      status: 415,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError("invalid_json", "The request body must be a JSON object.");
  }
  if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) {
    throw new ApiError("invalid_request", `The request body nests objects and arrays deeper than ${MAX_BODY_DEPTH} levels.`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * How deep a body's objects and arrays may nest. No operation's body goes past a few levels; the bound is what lets
 * code that walks a body (schemas, the demographics check, idempotency fingerprints) do so without any risk of
 * running out of stack on a small, hostile body (10,000 levels fit in 60 KB).
 */
export const MAX_BODY_DEPTH = 32;

/**
 * True when objects and arrays nest deeper than `max` levels. The walk recurses at most `max` + 1 calls deep (it
 * stops at the first level past the bound), so any input is safe; it allocates nothing, as it also walks every
 * page of a health system's search results (a 10,000-resource import is millions of values).
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (max < 1) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, max - 1)) return true;
    return false;
  }
  for (const key in value) if (Object.hasOwn(value, key) && nestsDeeperThan((value as Record<string, unknown>)[key], max - 1)) return true;
  return false;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((cause: unknown) => {
      // Reading a body touches nothing but the socket: a failure here means the client went away.
      throw new ClientClosedRequest(cause);
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8 JSON.");
  }
}

/** The client closed the connection before its request body arrived whole. */
export class ClientClosedRequest extends Error {
  constructor(cause: unknown) {
    super("The client closed the request before its body arrived.", { cause });
    this.name = "ClientClosedRequest";
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body exceeds ${maxBytes / 1024} KiB.`);
}
