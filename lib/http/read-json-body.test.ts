import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { MAX_BODY_DEPTH, nestsDeeperThan, readJsonBody } from "./read-json-body";

function streamOf(bytes: Uint8Array, chunkSize = 4096): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

function post(body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.code}`;
    throw error;
  }
  return "ok";
}

describe("readJsonBody", () => {
  it("parses a JSON object and treats an empty body as {}", async () => {
    expect(await readJsonBody(post('{"a":1}'))).toEqual({ a: 1 });
    expect(await readJsonBody(post(""))).toEqual({});
  });

  it("refuses malformed JSON and non-objects with invalid_json", async () => {
    for (const body of ["{", "nope", "[1,2]", "null", '"text"', "42"]) {
      expect(await codeOf(readJsonBody(post(body)))).toBe("400 invalid_json");
    }
  });

  it("refuses bodies over 64 KiB by Content-Length and by counting streamed bytes", async () => {
    const big = `{"x":"${"a".repeat(70 * 1024)}"}`;
    expect(await codeOf(readJsonBody(post(big)))).toBe("413 payload_too_large");
    // A streamed body has no Content-Length: the reader must count.
    expect(await codeOf(readJsonBody(post(streamOf(new TextEncoder().encode(big)))))).toBe("413 payload_too_large");
    // A lying Content-Length does not help either.
    const lying = post(streamOf(new TextEncoder().encode(big)), { "content-type": "application/json", "content-length": "10" });
    expect(await codeOf(readJsonBody(lying))).toBe("413 payload_too_large");
  });

  it("accepts a body of exactly 64 KiB", async () => {
    const exact = `{"x":"${"a".repeat(64 * 1024 - 8)}"}`;
    expect(exact.length).toBe(64 * 1024);
    expect(await codeOf(readJsonBody(post(streamOf(new TextEncoder().encode(exact)))))).toBe("ok");
  });

  it("refuses a non-JSON content type with 415 invalid_request", async () => {
    expect(await codeOf(readJsonBody(post('{"a":1}', { "content-type": "text/plain" })))).toBe("415 invalid_request");
  });
});

describe("the nesting bound", () => {
  const nested = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

  it("refuses a body nested deeper than the bound with 400 invalid_request, however deep and within the size limit", async () => {
    expect(nested(10_000).length).toBeLessThan(64 * 1024);
    expect(await codeOf(readJsonBody(post(nested(10_000))))).toBe("400 invalid_request");
    expect(await codeOf(readJsonBody(post(nested(MAX_BODY_DEPTH + 1))))).toBe("400 invalid_request");
    expect(await codeOf(readJsonBody(post(`{"list":${"[".repeat(MAX_BODY_DEPTH)}${"]".repeat(MAX_BODY_DEPTH)}}`)))).toBe("400 invalid_request");
  });

  it("accepts a body exactly at the bound", async () => {
    expect(await codeOf(readJsonBody(post(nested(MAX_BODY_DEPTH))))).toBe("ok");
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  });
});
