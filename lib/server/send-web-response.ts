import type { ServerResponse } from "node:http";

/** Writes a fetch-API Response (the shape errorResponse builds) to a node response. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader("Content-Length", body.length);
  res.writeHead(response.status);
  res.end(body);
}
