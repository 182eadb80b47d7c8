import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { JsonAnswer, jsonText } from "@/lib/http";
import { testOperation } from "@/test/operations";
import type { HandlerArgs } from "./handler";
import { route } from "./route";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * Serves one request whose handler keeps the arguments it was called with and answers a large body; returns a weak
 * reference to that body once the answer has been read, and the kept arguments.
 */
async function serveKeepingArguments() {
  let kept: HandlerArgs<"none", undefined, undefined, undefined> | undefined;
  const handler = route(testOperation({ method: "GET", path: "/things", auth: "none" }), (args) => {
    kept = args;
    return { body: jsonText({ records: Array.from({ length: 50 }, (_, i) => ({ id: i, text: "x".repeat(1_000) })) }) };
  });
  const answer = await handler.answer(new Request("http://localhost/test/v1/things"));
  if (!(answer instanceof JsonAnswer)) throw new Error("expected a JSON answer");
  return { body: new WeakRef(answer.json), kept };
}

describe("an operation's pipeline", () => {
  it("lets the answer go once it is returned, however long what the handler was given lives on", async () => {
    // What a request leaves behind can live on in V8's old generation until its next full collection: the answer
    // must not live on with it, or every young collection copies it again (docs/operations.md).
    const { body, kept } = await serveKeepingArguments();
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(kept?.setHeader).toBeTypeOf("function");
    expect(body.deref()).toBeUndefined();
  });
});
