import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";

/**
 * JSON that is already text, spliced into an answer as it is: records are stored as the JSON the API serves, and
 * parsing each one into objects only to serialize it again was most of what a records page cost.
 *
 * The text is held as the pieces it was made of (each record as PostgreSQL sent it) and written to the socket in
 * chunks of at most JSON_CHUNK_CHARS, never joined: a page of records joined is a string of a few hundred kilobytes,
 * and V8 places every string over 128 KiB (a two-byte one from 64k characters) in its large-object space, a memory
 * mapping of its own per string, mapped, faulted in and unmapped again for every answer. On the bench's virtual
 * machine that cost more than everything else a snapshot does (bench/results.md, "CPU per request").
 */
export class JsonText {
  readonly parts: readonly string[];
  #byteLength: number | undefined;

  constructor(text: string | readonly string[]) {
    this.parts = typeof text === "string" ? [text] : text;
  }

  /** The UTF-8 length, piece by piece, counted once (compression's threshold and Content-Length both ask). */
  get byteLength(): number {
    if (this.#byteLength === undefined) {
      let bytes = 0;
      for (const part of this.parts) bytes += Buffer.byteLength(part);
      this.#byteLength = bytes;
    }
    return this.#byteLength;
  }

  /** The whole text as one string: for small answers and tests, never on the path that writes an answer. */
  get text(): string {
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join("");
  }
}

/** The largest string a JsonText's pieces are grouped into for writing: at most 32 KiB even as two-byte text. */
export const JSON_CHUNK_CHARS = 16 * 1024;

/** A JsonText's pieces grouped in order into strings of at most JSON_CHUNK_CHARS (a longer piece stays whole). */
export function* jsonChunks(json: JsonText): Generator<string> {
  let chunk = "";
  for (const part of json.parts) {
    if (chunk.length > 0 && chunk.length + part.length > JSON_CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
    chunk += part;
  }
  if (chunk.length > 0) yield chunk;
}

// Where a JsonText sits while the rest is serialized: a string no other value can hold, since it carries a
// process-random token no client sees before it is replaced.
const TOKEN = `jsontext:${randomBytes(16).toString("hex")}:`;
const PLACEHOLDER = new RegExp(`"${TOKEN}(\\d+)"`, "g");

/** The JSON text of `value` (as JSON.stringify writes it), with each JsonText inside it written as its own text. */
export function jsonText(value: unknown): JsonText {
  const spliced: JsonText[] = [];
  const skeleton = JSON.stringify(value, (_key, item: unknown) => (item instanceof JsonText ? `${TOKEN}${spliced.push(item) - 1}` : item));
  if (spliced.length === 0) return new JsonText(skeleton);
  const parts: string[] = [];
  let at = 0;
  for (const match of skeleton.matchAll(PLACEHOLDER)) {
    parts.push(skeleton.slice(at, match.index));
    for (const part of spliced[Number(match[1])]!.parts) parts.push(part);
    at = match.index + match[0].length;
  }
  parts.push(skeleton.slice(at));
  return new JsonText(parts);
}

/** A JSON answer's body: a JsonText as it is, anything else through JSON.stringify. */
export function serializeJson(body: unknown): JsonText {
  return body instanceof JsonText ? body : new JsonText(JSON.stringify(body));
}

/**
 * A JSON answer not yet made a Response: the platform's server writes its text to the socket piece by piece, and
 * never builds the Response, its Headers and its body stream (docs/architecture.md, "Keyed requests", has what that
 * saves); whoever needs a Response (Next.js, MCP, tests) asks for one.
 */
export class JsonAnswer {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly json: JsonText,
  ) {}

  /** The answer as a Response, whose body streams chunk by chunk, encoded only as it is read. */
  toResponse(): Response {
    return new Response(this.json.parts.length === 1 ? this.json.parts[0] : chunkStream(this.json), { status: this.status, headers: this.headers });
  }
}

/** What an API operation answers: JSON not yet a Response, or a Response its handler or error mapping built. */
export type Answer = Response | JsonAnswer;

/** An answer as a Response. */
export function webResponse(answer: Answer): Response {
  return answer instanceof JsonAnswer ? answer.toResponse() : answer;
}

function chunkStream(json: JsonText): ReadableStream<Uint8Array> {
  const chunks = jsonChunks(json);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
}

/**
 * Ends a node response with `json` as its body, with its Content-Length: piece by piece in chunks of at most
 * JSON_CHUNK_CHARS, corked so that they leave together.
 */
export function writeJsonText(res: ServerResponse, json: JsonText): void {
  res.setHeader("Content-Length", json.byteLength);
  if (json.parts.length === 1) {
    res.end(json.parts[0]);
    return;
  }
  res.cork();
  for (const chunk of jsonChunks(json)) res.write(chunk);
  res.end();
}
