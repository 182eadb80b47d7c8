import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invalidParams } from "./invalid-params";

const call = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params });

describe("invalidParams", () => {
  it("names tools/call arguments that are not an object, and what they are instead", () => {
    const cases: [unknown, string][] = [
      ["x", "a string"],
      [[1], "an array"],
      [3, "a number"],
      [null, "null"],
      [true, "true"],
    ];
    for (const [args, kind] of cases) {
      expect(invalidParams(call({ name: "get_app", arguments: args }))).toBe(`tools/call: params.arguments must be an object, not ${kind}.`);
    }
  });

  it("names a missing or mistyped tool name, and params that are not an object", () => {
    expect(invalidParams(call({}))).toBe("tools/call: params.name is required.");
    expect(invalidParams(call({ name: 7 }))).toBe("tools/call: params.name must be a string, not a number.");
    expect(invalidParams(call("get_app"))).toBe("tools/call: params must be an object, not a string.");
    expect(invalidParams({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 3 } })).toBe("initialize: params.protocolVersion must be a string, not a number.");
  });

  it("lets through requests that fit, and methods the SDK answers itself", () => {
    expect(invalidParams(call({ name: "get_app" }))).toBeNull();
    expect(invalidParams(call({ name: "get_app", arguments: { subject: "u_1", nested: [1, { a: null }] } }))).toBeNull();
    expect(invalidParams({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBeNull();
    expect(invalidParams({ jsonrpc: "2.0", id: 1, method: "resources/list", params: "x" })).toBeNull();
    expect(invalidParams({ jsonrpc: "2.0", id: 1, method: "__proto__", params: "x" })).toBeNull();
  });

  it("answers any arguments value in one short sentence, never zod's issue dump", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (args) => {
        const problem = invalidParams(call({ name: "get_app", arguments: args }));
        if (args !== null && typeof args === "object" && !Array.isArray(args)) expect(problem).toBeNull();
        else expect(problem).toMatch(/^tools\/call: params\.arguments must be an object, not [\w ]+\.$/);
      }),
    );
  });
});
