import { describe, expect, it } from "vitest";
import { JSON_CHUNK_CHARS, JsonAnswer, jsonChunks, jsonText, JsonText, serializeJson, webResponse } from "./json-text";

describe("JSON text", () => {
  it("splices stored JSON into an answer as it is, and serializes everything else as JSON.stringify does", () => {
    const records = new JsonText('[{"id": "rec_1", "value": 1.50}]');
    const body = jsonText({ data: records, hasMore: false, nested: { also: new JsonText("null") }, note: "a \"quoted\" value" });
    expect(body.text).toBe('{"data":[{"id": "rec_1", "value": 1.50}],"hasMore":false,"nested":{"also":null},"note":"a \\"quoted\\" value"}');
    expect(JSON.parse(body.text)).toEqual({ data: [{ id: "rec_1", value: 1.5 }], hasMore: false, nested: { also: null }, note: 'a "quoted" value' });
    expect(serializeJson(body)).toBe(body);
    expect(serializeJson({ a: [1] }).text).toBe('{"a":[1]}');
  });

  it("a string that looks like a placeholder stays a string", () => {
    expect(JSON.parse(jsonText({ a: new JsonText("1"), b: "jsontext:0:0" }).text)).toEqual({ a: 1, b: "jsontext:0:0" });
  });

  it("keeps spliced text as its pieces: the answer is never joined into one string", () => {
    const records = new JsonText(["[", '{"n":1}', ",", '{"n":2}', "]"]);
    const body = jsonText({ data: records, hasMore: false });
    expect(body.parts).toEqual(['{"data":', "[", '{"n":1}', ",", '{"n":2}', "]", ',"hasMore":false}']);
    expect(JSON.parse(body.text)).toEqual({ data: [{ n: 1 }, { n: 2 }], hasMore: false });
  });

  it("groups pieces in order into chunks of at most JSON_CHUNK_CHARS, a longer piece whole, and counts UTF-8 bytes", () => {
    const piece = "x".repeat(JSON_CHUNK_CHARS / 4);
    const long = "y".repeat(JSON_CHUNK_CHARS * 2);
    const json = new JsonText([piece, piece, piece, piece, piece, long, "–µ"]);
    const chunks = [...jsonChunks(json)];
    expect(chunks.join("")).toBe(json.text);
    expect(chunks.map((chunk) => chunk.length)).toEqual([JSON_CHUNK_CHARS, JSON_CHUNK_CHARS / 4, long.length, 2]);
    expect(json.byteLength).toBe(Buffer.byteLength(json.text));
    expect(json.byteLength).toBe(json.text.length + 2 + 1);
  });

  it("makes a Response of a JSON answer only when asked: its status, headers and text; a body in pieces reads as its text", async () => {
    const answer = new JsonAnswer(201, { "Content-Type": "application/json", "X-Request-Id": "req_1" }, new JsonText('{"ok":true}'));
    const response = webResponse(answer);
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("req_1");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe('{"ok":true}');
    const made = Response.json({ ok: true });
    expect(webResponse(made)).toBe(made);

    const pieces = new JsonText(["[", `"${"é".repeat(JSON_CHUNK_CHARS)}"`, ",", '"–"', "]"]);
    expect(await new JsonAnswer(200, {}, pieces).toResponse().text()).toBe(pieces.text);
  });
});
