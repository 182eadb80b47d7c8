import { describe, expect, it } from "vitest";
import { bodyTextOf, jsonText, JsonText, jsonTextResponse, serializeJson } from "./json-text";

describe("JSON text", () => {
  it("splices stored JSON into an answer as it is, and serializes everything else as JSON.stringify does", () => {
    const records = new JsonText('[{"id": "rec_1", "value": 1.50}]');
    const body = jsonText({ data: records, hasMore: false, nested: { also: new JsonText("null") }, note: "a \"quoted\" value" });
    expect(body.text).toBe('{"data":[{"id": "rec_1", "value": 1.50}],"hasMore":false,"nested":{"also":null},"note":"a \\"quoted\\" value"}');
    expect(JSON.parse(body.text)).toEqual({ data: [{ id: "rec_1", value: 1.5 }], hasMore: false, nested: { also: null }, note: 'a "quoted" value' });
    expect(serializeJson(body)).toBe(body.text);
    expect(serializeJson({ a: [1] })).toBe('{"a":[1]}');
  });

  it("a string that looks like a placeholder stays a string", () => {
    expect(JSON.parse(jsonText({ a: new JsonText("1"), b: "jsontext:0:0" }).text)).toEqual({ a: 1, b: "jsontext:0:0" });
  });

  it("remembers the text of a JSON response until its body is read", async () => {
    const response = jsonTextResponse('{"ok":true}', { status: 200, headers: { "Content-Type": "application/json" } });
    expect(bodyTextOf(response)).toBe('{"ok":true}');
    expect(await response.text()).toBe('{"ok":true}');
    expect(bodyTextOf(response)).toBeUndefined();
    expect(bodyTextOf(Response.json({ ok: true }))).toBeUndefined();
  });
});
