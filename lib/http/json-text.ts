import { randomBytes } from "node:crypto";
import { processState } from "@/lib/process-state";

/**
 * JSON that is already text, spliced into an answer as it is: records are stored as the JSON the API serves, and
 * parsing each one into objects only to serialize it again was most of what a records page cost.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

// Where a JsonText sits while the rest is serialized: a string no other value can hold, since it carries a
// process-random token no client sees before it is replaced.
const TOKEN = `jsontext:${randomBytes(16).toString("hex")}:`;
const PLACEHOLDER = new RegExp(`"${TOKEN}(\\d+)"`, "g");

/** The JSON text of `value` (as JSON.stringify writes it), with each JsonText inside it written as its own text. */
export function jsonText(value: unknown): JsonText {
  const spliced: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => (item instanceof JsonText ? `${TOKEN}${spliced.push(item.text) - 1}` : item));
  return new JsonText(spliced.length === 0 ? text : text.replace(PLACEHOLDER, (_match, index: string) => spliced[Number(index)]!));
}

/** A JSON answer's body: a JsonText as it is, anything else through JSON.stringify. */
export function serializeJson(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}

// The text each JSON answer was made from: a server writing the answer to a socket writes this text itself instead
// of reading the body back out of the Response (an encode and a copy of every body, most of it records).
const BODY_TEXT = processState("http.json-body-text", () => new WeakMap<Response, string>());

/** A JSON Response whose body is `text`, remembered for bodyTextOf. */
export function jsonTextResponse(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  BODY_TEXT.set(response, text);
  return response;
}

/** The text a jsonTextResponse was made from, while its body has not been read. */
export function bodyTextOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : BODY_TEXT.get(response);
}
