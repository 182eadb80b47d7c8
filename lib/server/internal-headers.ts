import type { IncomingMessage } from "node:http";
import { connectionClientAddress, INTERNAL_HEADER, newRequestId } from "@/lib/http";
import { headerText } from "./header-text";

/**
 * Overwrites whatever a client wrote into the internal headers with what this server knows: the client's address
 * (the socket's peer, or the trusted proxies' X-Forwarded-For entry) and a new request id. The route wrappers
 * trust these two headers, so they must never carry client input. Node lower-cases header names and joins
 * repeats into one entry, so one assignment per name replaces every spelling a client sent; Next.js builds its
 * Request from `req.headers`, so that is the object to correct. Returns the request id.
 */
export function assignInternalHeaders(req: IncomingMessage, trustedHops: number): string {
  const forwardedFor = headerText(req.headers["x-forwarded-for"]);
  req.headers[INTERNAL_HEADER.clientAddress] = connectionClientAddress(req.socket.remoteAddress, forwardedFor, trustedHops);
  const requestId = newRequestId();
  req.headers[INTERNAL_HEADER.requestId] = requestId;
  return requestId;
}
